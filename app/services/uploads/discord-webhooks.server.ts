import { timingSafeEqual } from "node:crypto";
import type { Db } from "../../../db/index";
import type { FileRecord } from "../../../db/schema";
import { DomainError } from "~/services/platform/domain-error.server";
import { fileUrl } from "~/services/files/file-views.server";
import { sha256Hex } from "~/services/platform/ids.server";
import type { ServerId } from "~/lib/ids";

export const WEBHOOK_CATEGORY = "webhook";
const CONTENT_MAX = 2000;

/** The server a webhook URL names, if its secret is right (compared in constant time). */
export async function findWebhookServer(db: Db, serverId: ServerId | undefined, secret: string) {
  if (!serverId || !/^[0-9A-Za-z]{1,100}$/.test(secret)) return undefined;
  const server = await db.selectFrom("servers").select(["id", "name", "webhook_secret", "status"]).where("id", "=", serverId).executeTakeFirst();
  if (!server) return undefined;
  const same = timingSafeEqual(Buffer.from(sha256Hex(server.webhook_secret), "hex"), Buffer.from(sha256Hex(secret), "hex"));
  return same ? server : undefined;
}

/** What a Discord webhook body says besides its files: payload_json or plain fields. */
export interface WebhookPayload {
  content: string;
  username?: string;
  embeds: unknown[];
}

export function parseWebhookPayload(source: Record<string, unknown>): WebhookPayload {
  let payload: Record<string, unknown> = source;
  if (typeof source.payload_json === "string") {
    try {
      payload = { ...source, ...JSON.parse(source.payload_json) };
    } catch {
      throw new DomainError("invalid_request", "payload_json is not valid JSON", { field: "payload_json" });
    }
  }
  const content = typeof payload.content === "string" ? payload.content.slice(0, CONTENT_MAX) : "";
  const username = typeof payload.username === "string" ? payload.username.slice(0, 80) : undefined;
  const embeds = Array.isArray(payload.embeds) ? payload.embeds.slice(0, 10) : [];
  return { content, username, embeds };
}

/** Discord ids are snowflakes: numeric strings that sort by time. */
function snowflake(now: Date): string {
  const discordEpoch = 1420070400000n;
  return (((BigInt(now.getTime()) - discordEpoch) << 22n) | BigInt(Math.floor(Math.random() * 4_194_304))).toString();
}

/** The answer Discord gives an executed webhook, with our files as its attachments. */
export function discordMessage(cdnBaseUrl: string, serverId: ServerId, serverName: string, payload: WebhookPayload, files: FileRecord[], now: Date = new Date()) {
  const id = snowflake(now);
  return {
    id,
    type: 0,
    content: payload.content,
    channel_id: serverId,
    webhook_id: serverId,
    author: { id: serverId, username: payload.username ?? serverName, avatar: null, discriminator: "0000", bot: true },
    attachments: files.map((file) => {
      const url = fileUrl(cdnBaseUrl, file);
      return {
        id: file.id,
        filename: file.filename,
        size: file.size_bytes,
        content_type: file.mime_type,
        url,
        proxy_url: url,
        width: file.width,
        height: file.height,
      };
    }),
    embeds: payload.embeds,
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    pinned: false,
    tts: false,
    timestamp: now.toISOString(),
    edited_timestamp: null,
    flags: 0,
    components: [],
  };
}
