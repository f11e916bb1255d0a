import { z } from "zod";
import { DomainError } from "~/services/platform/domain-error.server";
import { discordLogEntry, type LogInput } from "~/services/logs/log-parsing.server";
import type { ImportItemInput } from "~/services/imports/import-items.server";
import { isSnowflake, parseDiscordAttachmentUrl, snowflakeTime } from "~/services/imports/discord-urls.server";

/**
 * DiscordChatExporter's JSON export (Tyrrrz/DiscordChatExporter, JsonMessageWriter): `guild`,
 * `channel`, `messages[]` each with `id`, `timestamp`, `author`, `attachments[] {id, url, fileName,
 * fileSizeBytes}` and `embeds[]`. Exported with `--media`, an attachment's `url` is the path of its
 * downloaded copy relative to the JSON file (`<export>.json_Files/<name>-<hash>.<ext>`, with `\` on
 * Windows); without it, the Discord CDN URL as it was at export time.
 */

const attachment = z.looseObject({
  id: z.string(),
  url: z.string().min(1),
  fileName: z.string().optional().nullable(),
  fileSizeBytes: z.number().optional().nullable(),
});

const embedColour = z.union([z.string(), z.number()]).optional().nullable();
const embed = z.looseObject({ color: embedColour });

const message = z.looseObject({
  id: z.string(),
  type: z.string().optional(),
  timestamp: z.string(),
  content: z.string().optional().nullable(),
  author: z.looseObject({ id: z.string().optional(), name: z.string().optional().nullable(), nickname: z.string().optional().nullable(), isBot: z.boolean().optional() }).optional(),
  attachments: z.array(attachment).optional().default([]),
  embeds: z.array(embed).optional().default([]),
});

const exportSchema = z.looseObject({
  guild: z.looseObject({ id: z.string().optional(), name: z.string().optional().nullable() }).optional(),
  channel: z.looseObject({ id: z.string(), name: z.string().optional().nullable() }),
  messages: z.array(message),
});

export interface ChatExport {
  channelId: string;
  channelName: string | null;
  guildName: string | null;
  /** Whether attachments point at downloaded copies in the export (`--media`) rather than Discord. */
  media: boolean;
  items: ImportItemInput[];
  /** Messages with embeds (log channels fed by webhooks) as log entries, at the time they were posted. */
  logEntries: LogInput[];
  messageCount: number;
}

function invalid(message: string, details: Record<string, unknown> = {}): DomainError {
  return new DomainError("invalid_export", message, details);
}

/** A `--media` path as it is inside the export: forward slashes, no leading `./`; null when it leaves the export. */
export function exportMediaPath(jsonDir: string, raw: string): string | null {
  const path = raw.replace(/\\/g, "/");
  if (path.startsWith("/") || /^[A-Za-z]:\//.test(path)) return null;
  const parts: string[] = jsonDir ? jsonDir.split("/") : [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") return null;
    parts.push(part);
  }
  return parts.length ? parts.join("/") : null;
}

/** DiscordChatExporter writes colours as `#rrggbb`; Discord's API (and the live capture) as a number. */
function colourNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^#?[0-9a-f]{6}$/i.test(value)) return parseInt(value.replace("#", ""), 16);
  return undefined;
}

/**
 * Reads one export. `jsonDir` is the folder of the JSON file inside an uploaded archive ("" at its
 * root): `--media` paths are resolved against it. Throws `invalid_export` naming what is wrong.
 */
export function parseChatExport(input: unknown, jsonDir = ""): ChatExport {
  const parsed = exportSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(`This is not a DiscordChatExporter JSON export: ${issue.path.join(".") || "the file"} ${issue.message.toLowerCase()}. Export the channel as JSON (--format Json).`, {
      path: issue.path.join("."),
    });
  }
  const data = parsed.data;
  if (!isSnowflake(data.channel.id)) throw invalid("The export's channel id is not a Discord id");
  const channelId = data.channel.id;
  const items: ImportItemInput[] = [];
  const logEntries: LogInput[] = [];
  let media = false;
  data.messages.forEach((msg, index) => {
    const postedAt = new Date(msg.timestamp);
    if (!isSnowflake(msg.id) || Number.isNaN(postedAt.getTime())) throw invalid(`Message ${index + 1} has no valid id or timestamp`, { message_index: index });
    const author = msg.author?.nickname || msg.author?.name || null;
    for (const file of msg.attachments) {
      if (!isSnowflake(file.id)) throw invalid(`Message ${msg.id} has an attachment without a valid id`, { message_id: msg.id });
      const cdn = parseDiscordAttachmentUrl(file.url);
      const isRemote = /^https?:\/\//i.test(file.url);
      if (!isRemote) media = true;
      const local = isRemote ? null : exportMediaPath(jsonDir, file.url);
      items.push({
        // A URL to fetch, or `archive:<path>` for a downloaded copy inside the uploaded export.
        ref: isRemote ? (cdn?.url ?? file.url) : `archive:${local ?? file.url}`,
        filename: cdn?.filename ?? file.fileName ?? null,
        channelId: cdn?.channelId ?? channelId,
        attachmentId: file.id,
        messageId: msg.id,
        author,
        postedAt: snowflakeTime(file.id),
        sizeBytes: file.fileSizeBytes ?? null,
      });
    }
    if (msg.embeds.length) {
      const entry = discordLogEntry(
        { content: msg.content ?? undefined, username: author ?? undefined, embeds: msg.embeds.map((e) => ({ ...e, color: colourNumber(e.color) })) },
        postedAt,
      );
      if (entry) {
        entry.metadata = { ...entry.metadata, source: "discord_import", channel_id: channelId, message_id: msg.id };
        logEntries.push(entry);
      }
    }
  });
  return {
    channelId,
    channelName: data.channel.name ?? null,
    guildName: data.guild?.name ?? null,
    media,
    items,
    logEntries,
    messageCount: data.messages.length,
  };
}

/** Parses JSON text of an export, with a clear error for text that is not JSON at all. */
export function parseChatExportText(text: string, jsonDir = ""): ChatExport {
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw invalid(`The export is not valid JSON (${(error as Error).message})`);
  }
  return parseChatExport(json, jsonDir);
}
