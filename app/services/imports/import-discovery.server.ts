import { sql } from "kysely";
import type { AppContext } from "~/services/app-context.server";
import type { ImportId } from "~/lib/ids";
import type { ImportItemInput } from "~/services/imports/import-items.server";
import { insertImportItems } from "~/services/imports/create-import.server";
import { intentMissing, type DiscordBot, type DiscordMessageJson } from "~/services/imports/discord-bot.server";
import { snowflakeTime } from "~/services/imports/discord-urls.server";
import { listFivemanageFiles } from "~/services/imports/fivemanage-files.server";
import { crawledLogEntry, importLogEntries } from "~/services/imports/import-logs.server";
import type { ImportOptions, ImportRow } from "~/services/imports/import-item-worker.server";

/**
 * The sources that are listed by the job, page by page: a Discord bot's channels (newest message
 * first, `before=` the last one seen) and Fivemanage's file list. Each page's files and the cursor
 * that follows them are written in one transaction, so a restarted job goes on from the next page
 * and lists nothing twice.
 */

export interface DiscoverCursor {
  phase: "discover" | "fetch";
  channel?: number;
  before?: string | null;
  page?: number;
  logs_done?: boolean;
  retries?: number;
}

/** A page of this many messages with no content, files or embeds at all means Discord is hiding them. */
const HIDDEN_PAGE = 10;

function looksHidden(page: DiscordMessageJson[]): boolean {
  const ordinary = page.filter((m) => (m.type ?? 0) === 0 || m.type === 19);
  return ordinary.length >= HIDDEN_PAGE && ordinary.every((m) => !m.content && !m.attachments?.length && !m.embeds?.length && !m.components?.length);
}

async function addPage(ctx: AppContext, job: ImportRow, items: ImportItemInput[], cursor: DiscoverCursor): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("imports").select("total").where("id", "=", job.id).forUpdate().executeTakeFirstOrThrow();
    await insertImportItems(trx, job.id as ImportId, items, row.total);
    await trx
      .updateTable("imports")
      .set({ total: sql`total + ${items.length}`, cursor: JSON.stringify(cursor), updated_at: new Date() })
      .where("id", "=", job.id)
      .execute();
  });
  Object.assign(job.cursor, cursor);
}

async function crawlChannels(ctx: AppContext, job: ImportRow, bot: DiscordBot, signal: AbortSignal, note: (text: string) => void): Promise<void> {
  await bot.assertCanReadMessages();
  const channels = (job.options as unknown as ImportOptions).channel_ids ?? [];
  const cursor = job.cursor as unknown as DiscoverCursor;
  let tooOld = 0;
  for (let index = cursor.channel ?? 0; index < channels.length; index++) {
    const channelId = channels[index]!;
    let before = index === cursor.channel ? (cursor.before ?? undefined) : undefined;
    for (;;) {
      signal.throwIfAborted();
      const page = await bot.channelMessages(channelId, before);
      if (looksHidden(page)) throw intentMissing();
      const items: ImportItemInput[] = page.flatMap((message) =>
        (message.attachments ?? []).map((attachment) => ({
          ref: attachment.url,
          filename: attachment.filename,
          channelId,
          attachmentId: attachment.id,
          messageId: message.id,
          author: message.author?.global_name ?? message.author?.username ?? null,
          postedAt: snowflakeTime(attachment.id),
          sizeBytes: attachment.size ?? null,
        })),
      );
      const logs = await importLogEntries(ctx, job.server_id, page.map(crawledLogEntry).filter((entry) => entry !== null));
      tooOld += logs.tooOld;
      if (logs.stopped) note(`Log entries stopped: ${logs.stopped}`);
      if (logs.stored) await ctx.db.updateTable("imports").set({ log_entries: sql`log_entries + ${logs.stored}` }).where("id", "=", job.id).execute();
      const last = page.at(-1)?.id;
      const done = page.length < 100 || !last;
      await addPage(ctx, job, items, done ? { ...cursor, phase: "discover", channel: index + 1, before: null } : { ...cursor, phase: "discover", channel: index, before: last });
      if (done) break;
      before = last;
    }
  }
  if (tooOld) note(`${tooOld} log messages were older than the discord-import dataset keeps entries and were not stored.`);
}

async function listFivemanage(ctx: AppContext, job: ImportRow, signal: AbortSignal): Promise<void> {
  const cursor = job.cursor as unknown as DiscoverCursor;
  for (let page = cursor.page ?? 1; ; page++) {
    signal.throwIfAborted();
    const listed = await listFivemanageFiles(ctx, job.secret ?? "", page, signal);
    await addPage(ctx, job, listed.items, { ...cursor, phase: "discover", page: page + 1 });
    if (!listed.more) return;
  }
}

/** Lists what a listed source holds, from where a restarted job left off; then the job fetches. */
export async function discoverItems(ctx: AppContext, job: ImportRow, bot: DiscordBot | null, signal: AbortSignal, note: (text: string) => void): Promise<void> {
  if (job.source === "discord_bot" && bot) await crawlChannels(ctx, job, bot, signal, note);
  if (job.source === "fivemanage") await listFivemanage(ctx, job, signal);
  const cursor = { ...(job.cursor as unknown as DiscoverCursor), phase: "fetch" as const };
  await ctx.db.updateTable("imports").set({ cursor: JSON.stringify(cursor) }).where("id", "=", job.id).execute();
  Object.assign(job.cursor, cursor);
}
