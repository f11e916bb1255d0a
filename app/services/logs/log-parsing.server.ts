import { normaliseLevel, type LogLevel } from "~/lib/log-levels";
import { DomainError } from "~/services/platform/domain-error.server";
import { DAY_MS } from "~/lib/durations";

export const MAX_ENTRIES_PER_REQUEST = 1000;
export const MAX_LOG_BODY_BYTES = 2 * 1024 * 1024;
export const MAX_MESSAGE_CHARS = 32 * 1024;
export const MAX_METADATA_BYTES = 16 * 1024;
const MAX_RESOURCE_CHARS = 100;
/** How far from now a sender's timestamp may be: clocks drift, queues replay, but not by months. */
const PAST_LIMIT_MS = 30 * DAY_MS;
const FUTURE_LIMIT_MS = DAY_MS;

/** One entry as every sender's shape becomes it. */
export interface LogInput {
  ts: Date;
  level: LogLevel;
  resource: string | null;
  message: string;
  metadata: Record<string, unknown>;
  /** A dataset named by the entry itself (Stash's `dataset` field, a Loki label). */
  dataset?: string;
}

function refuse(index: number | null, message: string): never {
  throw new DomainError("invalid_request", index === null ? message : `Entry ${index}: ${message}`);
}

/** A timestamp as senders write it: ISO text, epoch seconds, milliseconds or nanoseconds. */
export function parseTimestamp(value: unknown, now: Date, index: number | null = null): Date {
  if (value === undefined || value === null || value === "") return now;
  let ms: number;
  if (typeof value === "number" || (typeof value === "string" && /^\d+(\.\d+)?$/.test(value.trim()))) {
    const n = Number(value);
    const digits = typeof value === "string" ? value.trim() : "";
    // Seconds (10 digits), milliseconds (13), microseconds (16), nanoseconds (19, Loki). Whole micro- or
    // nanoseconds sent as text are cut to the millisecond exactly: as a double, 19 digits are a few hundred
    // nanoseconds off, enough to lose the millisecond the sender wrote.
    if (n >= 1e14 && /^\d+$/.test(digits)) ms = Number(BigInt(digits) / (n < 1e17 ? 1000n : 1_000_000n));
    else ms = n < 1e11 ? n * 1000 : n < 1e14 ? n : n < 1e17 ? n / 1000 : n / 1e6;
  } else if (typeof value === "string") {
    ms = Date.parse(value);
  } else {
    refuse(index, "timestamp must be an ISO date or a number");
  }
  if (!Number.isFinite(ms)) refuse(index, "timestamp is not a date");
  if (ms < now.getTime() - PAST_LIMIT_MS || ms > now.getTime() + FUTURE_LIMIT_MS) refuse(index, "timestamp must be within the last 30 days");
  return new Date(ms);
}

/** NUL cannot be stored in PostgreSQL text or jsonb; senders' stray ones are dropped rather than refused with a 500. */
const NUL = new RegExp(String.fromCharCode(0), "g");
/** Half a UTF-16 surrogate pair (JSON allows "\ud800" alone; PostgreSQL refuses it): the replacement character instead. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function storable(value: string): string {
  return value.replace(NUL, "").replace(LONE_SURROGATE, "\uFFFD");
}

/** A JSON value with every string and key storable. */
function storableJson(value: unknown): unknown {
  if (typeof value === "string") return storable(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storableJson(v)]));
  return value;
}

function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return storable(typeof value === "string" ? value : JSON.stringify(value));
}

/** A metadata object: a JSON object of at most 16 KB (a string holding one is accepted). */
export function parseMetadata(value: unknown, index: number | null = null): Record<string, unknown> {
  if (value === undefined || value === null || value === "") return {};
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      refuse(index, "metadata must be a JSON object");
    }
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) refuse(index, "metadata must be a JSON object");
  const json = JSON.stringify(parsed);
  if (Buffer.byteLength(json) > MAX_METADATA_BYTES) refuse(index, "metadata must be at most 16 KB");
  // JSON.stringify writes NUL and lone surrogates as escapes, and nothing else as "\u0000" or "\udXXX".
  return (/\\u(0000|d[89a-f])/i.test(json) ? storableJson(parsed) : parsed) as Record<string, unknown>;
}

/** One entry of Stash's, Fivemanage's or Fivemerr's shape: `level`, `message`, `resource`, `metadata`, `timestamp`, `dataset`. */
export function parseLogEntry(value: unknown, now: Date, index: number | null = null): LogInput {
  if (!value || typeof value !== "object" || Array.isArray(value)) refuse(index, "each entry must be a JSON object");
  const entry = value as Record<string, unknown>;
  const message = text(entry.message ?? entry.msg);
  if (!message || !message.trim()) refuse(index, "message is required");
  if (message.length > MAX_MESSAGE_CHARS) refuse(index, "message must be at most 32 KB");
  const resource = text(entry.resource)?.trim().slice(0, MAX_RESOURCE_CHARS) || null;
  return {
    ts: parseTimestamp(entry.timestamp ?? entry.time ?? entry.ts, now, index),
    level: normaliseLevel(entry.level),
    resource,
    message,
    metadata: parseMetadata(entry.metadata ?? entry.meta, index),
    ...(entry.dataset !== undefined ? { dataset: String(entry.dataset) } : {}),
  };
}

/** A request body of entries: one object, an array, or `{logs: [...]}`; at most 1,000 (413 beyond). */
export function parseLogBody(body: unknown, now: Date): LogInput[] {
  const list = Array.isArray(body) ? body : body && typeof body === "object" && Array.isArray((body as { logs?: unknown }).logs) ? (body as { logs: unknown[] }).logs : [body];
  if (list.length === 0) refuse(null, "Send at least one log entry");
  if (list.length > MAX_ENTRIES_PER_REQUEST) throw new DomainError("request_too_large", `At most ${MAX_ENTRIES_PER_REQUEST} entries per request`);
  return list.map((entry, i) => parseLogEntry(entry, now, list.length > 1 ? i : null));
}

/**
 * A Grafana Loki push (`{streams: [{stream: {labels}, values: [[ns, line], …]}]}`), as ox_lib and
 * Promtail send it. Labels go to metadata (`resource`, `level` and `dataset` labels are read); a line
 * that is a JSON object gives its `message` and the rest as metadata.
 */
export function parseLokiPush(body: unknown, now: Date): LogInput[] {
  const streams = body && typeof body === "object" ? (body as { streams?: unknown }).streams : undefined;
  if (!Array.isArray(streams)) refuse(null, "A Loki push needs streams");
  const out: LogInput[] = [];
  for (const stream of streams) {
    const labels = (stream && typeof stream === "object" ? (stream as { stream?: unknown; labels?: unknown }).stream : undefined) ?? {};
    const values = (stream as { values?: unknown }).values;
    if (!labels || typeof labels !== "object" || !Array.isArray(values)) refuse(null, "Each stream needs stream labels and values");
    const tags = labels as Record<string, string>;
    for (const value of values) {
      if (!Array.isArray(value) || value.length < 2) refuse(out.length, "each value must be [timestamp, line]");
      const [ts, line, structured] = value as [unknown, unknown, unknown];
      let message = String(line);
      let fields: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(message);
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
          const { message: inner, msg, level, ...rest } = parsed as Record<string, unknown>;
          message = text(inner ?? msg) ?? message;
          fields = { ...rest, ...(level !== undefined ? { level } : {}) };
        }
      } catch {
        // A plain text line is the message as it is.
      }
      const entry = parseLogEntry(
        {
          message,
          level: fields.level ?? tags.level ?? tags.severity,
          resource: tags.resource ?? tags.job ?? tags.app ?? null,
          timestamp: ts,
          metadata: { ...(structured && typeof structured === "object" ? structured : {}), ...fields, labels: tags },
        },
        now,
        out.length,
      );
      delete entry.metadata.level;
      out.push({ ...entry, ...(tags.dataset ? { dataset: tags.dataset } : {}) });
      if (out.length > MAX_ENTRIES_PER_REQUEST) throw new DomainError("request_too_large", `At most ${MAX_ENTRIES_PER_REQUEST} entries per request`);
    }
  }
  if (out.length === 0) refuse(null, "Send at least one log entry");
  return out;
}

interface DiscordEmbed {
  title?: unknown;
  description?: unknown;
  color?: unknown;
  url?: unknown;
  author?: { name?: unknown };
  footer?: { text?: unknown };
  fields?: Array<{ name?: unknown; value?: unknown }>;
  image?: { url?: unknown };
  thumbnail?: { url?: unknown };
}

/** Discord's embed colours to a level: red means error, orange/yellow warn; anything else is info. */
function levelOfColour(colour: unknown): LogLevel {
  const n = Number(colour);
  if (!Number.isInteger(n)) return "info";
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  if (r > 180 && g < 90 && b < 90) return "error";
  if (r > 200 && g > 120 && b < 90) return "warn";
  return "info";
}

/**
 * What a script posts to a Discord webhook (JD_logs, qb-logs, ox_lib's discord logger), as one log
 * entry: the content and each embed's title, description and fields flattened into the message, the
 * structure kept in metadata, `username` as the resource.
 */
export function discordLogEntry(payload: { content?: unknown; username?: unknown; embeds?: unknown }, now: Date): LogInput | null {
  const embeds = (Array.isArray(payload.embeds) ? payload.embeds : []) as DiscordEmbed[];
  const lines: string[] = [];
  if (typeof payload.content === "string" && payload.content.trim()) lines.push(payload.content.trim());
  const fields: Record<string, string> = {};
  for (const embed of embeds) {
    if (embed.title) lines.push(String(embed.title));
    if (embed.description) lines.push(String(embed.description));
    for (const field of embed.fields ?? []) {
      if (field?.name === undefined) continue;
      lines.push(`${String(field.name)}: ${String(field.value ?? "")}`);
      fields[String(field.name)] = String(field.value ?? "");
    }
  }
  if (lines.length === 0) return null;
  const first = embeds[0];
  const metadata: Record<string, unknown> = {
    source: "discord_webhook",
    ...(Object.keys(fields).length ? { fields } : {}),
    ...(first?.title ? { title: String(first.title) } : {}),
    ...(first?.color !== undefined ? { color: first.color } : {}),
    ...(first?.author?.name ? { author: String(first.author.name) } : {}),
    ...(first?.footer?.text ? { footer: String(first.footer.text) } : {}),
    ...(first?.url ? { url: String(first.url) } : {}),
    ...(first?.image?.url || first?.thumbnail?.url ? { image: String(first.image?.url ?? first.thumbnail?.url) } : {}),
    ...(embeds.length > 1 ? { embeds: embeds.length } : {}),
  };
  const message = storable(lines.join("\n")).slice(0, MAX_MESSAGE_CHARS);
  const metadataSize = Buffer.byteLength(JSON.stringify(metadata));
  return {
    ts: now,
    level: levelOfColour(first?.color),
    resource: typeof payload.username === "string" && payload.username.trim() ? storable(payload.username).trim().slice(0, MAX_RESOURCE_CHARS) : null,
    message,
    metadata: metadataSize > MAX_METADATA_BYTES ? { source: "discord_webhook", truncated: true } : (storableJson(metadata) as Record<string, unknown>),
  };
}
