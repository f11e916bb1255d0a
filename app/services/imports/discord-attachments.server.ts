import type { Db } from "../../../db/index";
import type { ServerId, TeamId } from "~/lib/ids";
import { isSnowflake } from "~/services/imports/discord-urls.server";

export interface DiscordAttachmentPath {
  channelId: string;
  attachmentId: string;
  filename: string;
}

/** `/dc/attachments/{channel_id}/{attachment_id}/{filename}[?anything]`, or null for any other shape. */
export function parseDiscordAttachmentPath(url: string): DiscordAttachmentPath | null {
  const pathname = url.split("?")[0]!;
  const parts = pathname.split("/");
  if (parts.length !== 6 || parts[1] !== "dc" || parts[2] !== "attachments") return null;
  const [, , , channelId, attachmentId, rawName] = parts as [string, string, string, string, string, string];
  if (!isSnowflake(channelId) || !isSnowflake(attachmentId) || !rawName) return null;
  try {
    return { channelId, attachmentId, filename: decodeURIComponent(rawName) };
  } catch {
    return null;
  }
}

/**
 * The Stash file a rescued Discord attachment is served from, by Discord's own ids and name: the
 * request must name the attachment's file as Discord did. A team's own domain passes `teamId` so it
 * serves only that team's rescues; on the shared CDN host the first team to rescue it answers.
 */
export async function findDiscordAttachment(db: Db, path: DiscordAttachmentPath, teamId?: TeamId): Promise<{ server_id: ServerId; category: string; filename: string } | undefined> {
  let query = db
    .selectFrom("discord_attachments as d")
    .innerJoin("files as f", "f.id", "d.file_id")
    .select(["f.server_id", "f.category", "f.filename"])
    .where("d.channel_id", "=", path.channelId)
    .where("d.attachment_id", "=", path.attachmentId)
    .where("d.filename", "=", path.filename);
  if (teamId) query = query.where("d.team_id", "=", teamId);
  return query.orderBy("d.created_at").limit(1).executeTakeFirst();
}
