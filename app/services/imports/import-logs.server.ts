import type { AppContext } from "~/services/app-context.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { findOrCreateDataset } from "~/services/logs/log-datasets.server";
import { ingestLogs, logTargetOfServer } from "~/services/logs/log-ingest.server";
import { discordLogEntry, type LogInput } from "~/services/logs/log-parsing.server";
import { DAY_MS } from "~/lib/durations";
import type { ServerId } from "~/lib/ids";
import type { DiscordMessageJson } from "~/services/imports/discord-bot.server";

/** The dataset historical Discord messages land in, apart from the live `discord` capture. */
export const DISCORD_IMPORT_DATASET = "discord-import";
const BATCH = 1000;

export interface LogImportResult {
  stored: number;
  /** Older than the dataset keeps entries: they would be deleted at the next purge, so they are not stored. */
  tooOld: number;
  /** Why the rest was not stored (the plan's monthly volume), when it was not. */
  stopped: string | null;
}

/**
 * Stores historical log entries (embeds of a Discord export or crawl) in the server's `discord-import`
 * dataset at the time they were posted — those within the dataset's retention; older ones are counted,
 * not stored (retention would drop them, and each day would need a partition). The plan's monthly
 * volume applies as for any ingest.
 */
export async function importLogEntries(ctx: AppContext, serverId: ServerId, entries: LogInput[], now = new Date()): Promise<LogImportResult> {
  const result: LogImportResult = { stored: 0, tooOld: 0, stopped: null };
  if (entries.length === 0) return result;
  const target = await logTargetOfServer(ctx.db, serverId);
  const dataset = await findOrCreateDataset(ctx.db, serverId, DISCORD_IMPORT_DATASET, target.tier);
  const oldest = now.getTime() - dataset.retentionDays * DAY_MS + DAY_MS;
  const kept = entries.filter((entry) => entry.ts.getTime() >= oldest && entry.ts.getTime() <= now.getTime() + DAY_MS);
  result.tooOld = entries.length - kept.length;
  for (let start = 0; start < kept.length; start += BATCH) {
    const batch = kept.slice(start, start + BATCH);
    try {
      await ingestLogs(ctx.db, ctx.logVolume, target, batch, DISCORD_IMPORT_DATASET, now);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== "rate_limited") throw error;
      result.stopped = error.message;
      break;
    }
    result.stored += batch.length;
  }
  return result;
}

/** Entries as the export's NDJSON holds them (JSON turned `ts` into text). */
export function parseLogEntriesNdjson(text: string): LogInput[] {
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const entry = JSON.parse(line) as LogInput & { ts: string };
      return { ...entry, ts: new Date(entry.ts) };
    });
}

/** A crawled message with embeds as a log entry, flattened like the live capture. */
export function crawledLogEntry(message: DiscordMessageJson): LogInput | null {
  if (!message.embeds?.length) return null;
  const entry = discordLogEntry({ content: message.content, username: message.author?.global_name ?? message.author?.username, embeds: message.embeds }, new Date(message.timestamp));
  if (entry) entry.metadata = { ...entry.metadata, source: "discord_import", channel_id: message.channel_id, message_id: message.id };
  return entry;
}
