/**
 * Discord's attachment links (docs/decisions/111). Since 2024 every `cdn.discordapp.com` and
 * `media.discordapp.net` attachment URL carries `ex` (expiry, hex Unix seconds), `is` (issued) and `hm`
 * (signature); past `ex` the link answers an error everywhere but in Discord's own client. An attachment
 * is named by its channel and its own snowflake id, whatever the parameters say.
 */

export const DISCORD_CDN_HOSTS = ["cdn.discordapp.com", "media.discordapp.net"] as const;

/** The signature parameters Discord adds; everything else in the query (width, format…) is kept. */
const EXPIRY_PARAMS = ["ex", "is", "hm"];
const SNOWFLAKE = /^\d{15,21}$/;
/** Discord's epoch (2015-01-01T00:00:00Z), the zero of a snowflake's timestamp. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

export interface DiscordAttachmentUrl {
  channelId: string;
  attachmentId: string;
  /** The last path segment, decoded: Discord's name of the file. */
  filename: string;
  /** The URL without `ex`, `is` and `hm`. */
  url: string;
  /** When the signed link stops working; null when it carries no `ex`. */
  expiresAt: Date | null;
}

export function isDiscordCdnHost(hostname: string): boolean {
  return (DISCORD_CDN_HOSTS as readonly string[]).includes(hostname.toLowerCase().replace(/\.$/, ""));
}

export function isSnowflake(value: unknown): value is string {
  return typeof value === "string" && SNOWFLAKE.test(value) && BigInt(value) >> 22n > 0n;
}

/** When a snowflake id was made: its top 42 bits are milliseconds since Discord's epoch. */
export function snowflakeTime(id: string): Date {
  return new Date(Number((BigInt(id) >> 22n) + DISCORD_EPOCH_MS));
}

/** `/attachments/{channel}/{attachment}/{filename}` on a Discord CDN host, or null for any other URL. */
export function parseDiscordAttachmentUrl(input: string | URL): DiscordAttachmentUrl | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || !isDiscordCdnHost(url.hostname)) return null;
  const parts = url.pathname.split("/");
  if (parts.length !== 5 || parts[1] !== "attachments") return null;
  const [, , channelId, attachmentId, rawName] = parts as [string, string, string, string, string];
  if (!isSnowflake(channelId) || !isSnowflake(attachmentId) || !rawName) return null;
  let filename: string;
  try {
    filename = decodeURIComponent(rawName);
  } catch {
    return null;
  }
  if (!filename || filename.includes("/")) return null;
  const ex = url.searchParams.get("ex");
  const expiresAt = ex && /^[0-9a-f]{1,12}$/i.test(ex) ? new Date(parseInt(ex, 16) * 1000) : null;
  for (const name of EXPIRY_PARAMS) url.searchParams.delete(name);
  url.hostname = url.hostname.toLowerCase();
  return { channelId, attachmentId, filename, url: url.toString(), expiresAt };
}

/** The path `/dc/` serves an attachment at, with the filename encoded as one path segment. */
export function discordAttachmentPath(channelId: string, attachmentId: string, filename: string): string {
  return `/dc/attachments/${channelId}/${attachmentId}/${encodeURIComponent(filename)}`;
}
