import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { isDatabaseUnavailable } from "../../../db/connection-errors";
import { isStorageFull, isStorageThrottled } from "../../../storage/storage-errors";
import type { AppContext } from "~/services/app-context.server";
import { DomainError } from "~/services/platform/domain-error.server";
import type { ImportId } from "~/lib/ids";
import { importUploadTarget } from "~/services/imports/import-upload.server";
import { ImportArchive } from "~/services/imports/import-archive.server";
import { archiveKey, archiveLimits, importBlobPrefix, logEntriesKey } from "~/services/imports/import-blobs.server";
import { importLogEntries, parseLogEntriesNdjson } from "~/services/imports/import-logs.server";
import { discoverItems, type DiscoverCursor } from "~/services/imports/import-discovery.server";
import { ImportItemWorker, isTransient, type ImportRow, type ItemRow, type Outcome } from "~/services/imports/import-item-worker.server";

/**
 * The import job (docs/decisions/110). A run takes queued or interrupted imports whose lease has run
 * out — `FOR UPDATE SKIP LOCKED`, so instances never take the same one — and works on up to two at
 * once (one per team: the table allows one), renewing its lease while it works. Everything a restart
 * needs is in the database: each file's state in `import_items`, the listing cursor in the import's row;
 * a restarted job goes on with the files still pending and never stores one twice. A refusal that is
 * the import's (a revoked token, a missing intent) ends it as failed with the reason; an outage ends the
 * run and the next one goes on. When an import ends, however it ends, its lent token and its blobs go.
 */

export const IMPORTS_JOB = "imports";
const LEASE_S = 60;
const FILES_AT_ONCE = 4;
const IMPORTS_AT_ONCE = 2;
const BATCH = 200;
const PROGRESS_EVERY_MS = 1000;
const MAX_RETRIES = 5;
/** A draft (a list still being sent) left this long is given up. */
const DRAFT_TTL_MINUTES = 60;

/** The import was cancelled (or ended) by someone else while this run worked on it. */
class Cancelled extends Error {}
/** Another run took the import (this one stalled past its lease): stop, touching nothing. */
class LeaseLost extends Error {}

async function claimNext(ctx: AppContext, worker: string, only?: string): Promise<ImportRow | undefined> {
  const { rows } = await sql<ImportRow>`
    UPDATE imports SET state = 'running', locked_by = ${worker}, locked_until = now() + make_interval(secs => ${LEASE_S}),
      started_at = coalesce(started_at, now()), updated_at = now()
    WHERE id = (
      SELECT id FROM imports
      WHERE state IN ('queued', 'running') AND (locked_until IS NULL OR locked_until < now()) ${only ? sql`AND id = ${only}` : sql``}
      ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
    )
    RETURNING *`.execute(ctx.db);
  return rows[0];
}

/** Recounts the import from its items and renews the lease; the import's state, or null once another took it. */
async function recordProgress(ctx: AppContext, id: string, worker: string): Promise<string | null> {
  const { rows } = await sql<{ state: string }>`
    UPDATE imports i SET
      stored = c.stored, duplicates = c.duplicates, failed = c.failed, stored_bytes = c.stored_bytes, failures = c.failures,
      updated_at = now(), locked_until = CASE WHEN i.state = 'running' THEN now() + make_interval(secs => ${LEASE_S}) ELSE i.locked_until END
    FROM (
      SELECT
        count(*) FILTER (WHERE state = 'stored')::int AS stored,
        count(*) FILTER (WHERE state = 'duplicate')::int AS duplicates,
        count(*) FILTER (WHERE state = 'failed')::int AS failed,
        coalesce(sum(size_bytes) FILTER (WHERE state = 'stored'), 0)::bigint AS stored_bytes,
        coalesce((SELECT jsonb_object_agg(cause, n) FROM (
          SELECT cause, count(*)::int AS n FROM import_items WHERE import_id = ${id} AND state = 'failed' GROUP BY cause
        ) f), '{}'::jsonb) AS failures
      FROM import_items WHERE import_id = ${id}
    ) c
    WHERE i.id = ${id} AND i.locked_by = ${worker}
    RETURNING i.state`.execute(ctx.db);
  return rows[0]?.state ?? null;
}

/** Records one file's outcome; answers the import's state, so a run notices a cancel before its next file. */
async function recordOutcome(ctx: AppContext, id: string, item: ItemRow, outcome: Outcome): Promise<string | undefined> {
  const row = await ctx.db
    .updateTable("import_items")
    .set(
      outcome.state === "failed"
        ? { state: "failed", cause: outcome.cause, detail: outcome.detail.slice(0, 500) }
        : { state: outcome.state, file_id: outcome.fileId, size_bytes: outcome.sizeBytes, cause: null, detail: null },
    )
    .where("import_id", "=", id as ImportId)
    .where("seq", "=", item.seq)
    .returning((eb) => eb.selectFrom("imports").select("state").where("id", "=", id as ImportId).as("import_state"))
    .executeTakeFirst();
  return row?.import_state ?? undefined;
}

async function deleteImportBlobs(ctx: AppContext, id: string): Promise<void> {
  for await (const blob of ctx.blobs.list(`${importBlobPrefix(id)}/`)) {
    await ctx.blobs.delete(blob.key).catch((error) => ctx.logger.warn({ err: error, key: blob.key }, "could not delete an import's blob"));
  }
}

/** Ends an import: its final counts, the lent token forgotten, its blobs deleted. */
async function finish(ctx: AppContext, job: ImportRow, worker: string, end: { state: "finished" | "failed"; code?: string; message?: string }, notes: Set<string>): Promise<void> {
  await recordProgress(ctx, job.id, worker);
  await ctx.db
    .updateTable("imports")
    .set({
      state: end.state,
      secret: null,
      error_code: end.code ?? null,
      error: end.message ?? null,
      notes: JSON.stringify([...(job.notes ?? []), ...notes].filter((note, index, all) => all.indexOf(note) === index)),
      finished_at: new Date(),
      updated_at: new Date(),
      locked_by: null,
      locked_until: null,
    })
    .where("id", "=", job.id)
    .where("state", "=", "running")
    .execute();
  await deleteImportBlobs(ctx, job.id);
}

/** The uploaded archive as a file on this machine: the disk store's own file, or a copy of the S3 object. */
async function openArchive(ctx: AppContext, job: ImportRow, tmpDir: string): Promise<{ archive: ImportArchive; cleanup(): Promise<void> } | null> {
  if (!job.source_key || !(await ctx.blobs.head(archiveKey(job.id)))) return null;
  let file = ctx.blobs.localPath?.(archiveKey(job.id));
  let copied = false;
  if (!file) {
    const blob = await ctx.blobs.get(archiveKey(job.id));
    if (!blob) return null;
    await fs.promises.mkdir(tmpDir, { recursive: true });
    file = path.join(tmpDir, `archive-${randomBytes(8).toString("hex")}.zip`);
    await pipeline(blob.stream, fs.createWriteStream(file));
    copied = true;
  }
  const archive = await ImportArchive.open(file, archiveLimits(ctx.config));
  return {
    archive,
    async cleanup() {
      archive.close();
      if (copied) await fs.promises.rm(file!, { force: true });
    },
  };
}

async function importExportLogs(ctx: AppContext, job: ImportRow, notes: Set<string>): Promise<void> {
  const cursor = job.cursor as unknown as DiscoverCursor;
  if (cursor.logs_done || !(job.options as { log_entries_pending?: number }).log_entries_pending) return;
  const blob = await ctx.blobs.get(logEntriesKey(job.id));
  if (blob) {
    const chunks: Buffer[] = [];
    for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
    const result = await importLogEntries(ctx, job.server_id, parseLogEntriesNdjson(Buffer.concat(chunks).toString("utf8")));
    if (result.tooOld) notes.add(`${result.tooOld} log messages were older than the discord-import dataset keeps entries and were not stored.`);
    if (result.stopped) notes.add(`Log entries stopped: ${result.stopped}`);
    await ctx.db.updateTable("imports").set({ log_entries: sql`log_entries + ${result.stored}` }).where("id", "=", job.id).execute();
  }
  const next = { ...cursor, logs_done: true };
  await ctx.db.updateTable("imports").set({ cursor: JSON.stringify(next) }).where("id", "=", job.id).execute();
  Object.assign(job.cursor, next);
}

/**
 * Runs `task` over `items`, `limit` at a time, in order of start. The first failure stops the lanes from
 * starting more, and is thrown once every started task has ended (none outlives the run).
 */
async function eachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (!failure && next < items.length) {
      try {
        await task(items[next++]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  });
  await Promise.all(lanes);
  if (failure) throw (failure as { error: unknown }).error;
}

async function fetchPending(ctx: AppContext, job: ImportRow, items: ImportItemWorker, progress: () => Promise<void>, cancelled: () => void, signal: AbortSignal): Promise<void> {
  let after = -1;
  for (;;) {
    signal.throwIfAborted();
    const batch = await ctx.db
      .selectFrom("import_items")
      .select(["seq", "ref", "filename", "channel_id", "attachment_id", "message_id", "author", "posted_at"])
      .where("import_id", "=", job.id as ImportId)
      .where("state", "=", "pending")
      .where("seq", ">", after)
      .orderBy("seq")
      .limit(BATCH)
      .execute();
    if (batch.length === 0) return;
    after = batch.at(-1)!.seq;
    await items.prepare(batch);
    await eachLimited(batch, FILES_AT_ONCE, async (item) => {
      signal.throwIfAborted();
      const state = await recordOutcome(ctx, job.id, item, await items.process(item));
      if (state !== "running") cancelled();
    });
    await progress();
    if ((job.cursor as unknown as DiscoverCursor).retries) {
      const cursor = { ...(job.cursor as unknown as DiscoverCursor), retries: 0 };
      await ctx.db.updateTable("imports").set({ cursor: JSON.stringify(cursor) }).where("id", "=", job.id).execute();
      Object.assign(job.cursor, cursor);
    }
  }
}

function isOutage(error: unknown): boolean {
  return isTransient(error) || isDatabaseUnavailable(error) || isStorageFull(error) || isStorageThrottled(error);
}

/** Works on one claimed import until it ends, the instance stops, or an outage pauses it. */
async function runImport(ctx: AppContext, job: ImportRow, worker: string, stopping: AbortSignal): Promise<void> {
  const local = new AbortController();
  const signal = AbortSignal.any([stopping, local.signal]);
  const tmpDir = path.join(ctx.config.dataDir, "imports-tmp");
  const notes = new Set<string>();
  let opened: Awaited<ReturnType<typeof openArchive>> = null;
  let progressing: Promise<void> | null = null;
  const progress = async () => {
    const state = await recordProgress(ctx, job.id, worker);
    if (state === "running") return;
    const stop = state === null ? new LeaseLost() : new Cancelled();
    local.abort(stop);
    throw stop;
  };
  const timer = setInterval(() => {
    progressing ??= progress()
      .catch(() => undefined)
      .finally(() => (progressing = null));
  }, PROGRESS_EVERY_MS);
  let items: ImportItemWorker | null = null;
  try {
    const target = await importUploadTarget(ctx, job.server_id, job.created_by_user_id);
    opened = await openArchive(ctx, job, tmpDir);
    items = new ImportItemWorker(ctx, job, target, opened?.archive ?? null, signal);
    if ((job.cursor as unknown as DiscoverCursor).phase !== "fetch") await discoverItems(ctx, job, items.bot, signal, (note) => notes.add(note));
    await importExportLogs(ctx, job, notes);
    await fetchPending(ctx, job, items, progress, () => local.abort(new Cancelled()), signal);
    for (const note of items.notes) notes.add(note);
    await finish(ctx, job, worker, { state: "finished" }, notes);
    ctx.logger.info({ importId: job.id, source: job.source }, "import finished");
  } catch (error) {
    for (const note of items?.notes ?? []) notes.add(note);
    if (local.signal.aborted) {
      if (local.signal.reason instanceof Cancelled) {
        // The counts as the files that were on their way left them.
        await progressing;
        await recordProgress(ctx, job.id, worker);
        await ctx.db.updateTable("imports").set({ locked_by: null, locked_until: null }).where("id", "=", job.id).where("locked_by", "=", worker).execute();
        await deleteImportBlobs(ctx, job.id);
      }
      return;
    }
    if (stopping.aborted) {
      // The instance is stopping: another run (here or elsewhere) goes on at once.
      await ctx.db.updateTable("imports").set({ locked_until: null, locked_by: null }).where("id", "=", job.id).where("locked_by", "=", worker).execute().catch(() => undefined);
      return;
    }
    if (isOutage(error)) {
      const retries = ((job.cursor as unknown as DiscoverCursor).retries ?? 0) + 1;
      const message = error instanceof DomainError ? error.message : "The database or file storage was unavailable";
      ctx.logger.warn({ err: error, importId: job.id, retries }, "import paused by an outage; the next run goes on");
      if (retries < MAX_RETRIES) {
        await ctx.db
          .updateTable("imports")
          .set({ cursor: JSON.stringify({ ...job.cursor, retries }), locked_by: null, locked_until: sql`now() + interval '30 seconds'` })
          .where("id", "=", job.id)
          .execute()
          .catch(() => undefined);
        return;
      }
      await finish(ctx, job, worker, { state: "failed", code: error instanceof DomainError ? error.code : "source_unavailable", message: `${message} (gave up after ${MAX_RETRIES} tries)` }, notes);
      return;
    }
    if (error instanceof DomainError) {
      await finish(ctx, job, worker, { state: "failed", code: error.code, message: error.message }, notes);
      return;
    }
    ctx.logger.error({ err: error, importId: job.id }, "import failed");
    await finish(ctx, job, worker, { state: "failed", code: "internal_error", message: "The import stopped on an unexpected error; files already imported are kept. Start it again to go on." }, notes);
  } finally {
    clearInterval(timer);
    await progressing;
    await opened?.cleanup();
  }
}

/** Drafts nobody finished sending are given up, so they do not block the team's next import. */
async function expireDrafts(ctx: AppContext): Promise<void> {
  await sql`UPDATE imports SET state = 'cancelled', secret = NULL, finished_at = now(), error = 'The list was never started'
    WHERE state = 'draft' AND updated_at < now() - make_interval(mins => ${DRAFT_TTL_MINUTES})`.execute(ctx.db);
}

/**
 * One run of the job: works on every import that is waiting (two at a time), then keeps looking for
 * new ones for `lingerMs` (a queued import starts within seconds while an instance runs the job), and
 * returns — at the latest after `maxRunMs`, handing what is unfinished to the next run. Tests run it
 * with no linger and no bound: it returns when nothing is left.
 */
export interface RunImportOptions {
  lingerMs: number;
  maxRunMs?: number;
  pollMs?: number;
  /** Work on this import only (the CLI runs its own import in its own process). */
  only?: string;
}

export async function runImportJobs(ctx: AppContext, stopping: AbortSignal, options: RunImportOptions = { lingerMs: 0 }): Promise<void> {
  // A bounded run hands its imports back (leases released) for the next run: the job queue sees runs end.
  const signal = options.maxRunMs ? AbortSignal.any([stopping, AbortSignal.timeout(options.maxRunMs)]) : stopping;
  const worker = `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const until = Date.now() + options.lingerMs;
  const running = new Set<Promise<void>>();
  await expireDrafts(ctx);
  while (!signal.aborted) {
    let claimed: ImportRow | undefined;
    if (running.size < IMPORTS_AT_ONCE) claimed = await claimNext(ctx, worker, options.only);
    if (claimed) {
      const run = runImport(ctx, claimed, worker, signal).finally(() => running.delete(run));
      running.add(run);
      continue;
    }
    if (running.size) {
      await Promise.race([...running, sleep(options.pollMs ?? 2000, undefined, { signal }).catch(() => undefined)]);
      continue;
    }
    if (Date.now() >= until) break;
    await sleep(options.pollMs ?? 2000, undefined, { signal }).catch(() => undefined);
  }
  await Promise.allSettled([...running]);
}
