import { sql } from "kysely";
import type { Db, DbKind } from "../../../db/index";
import type { BlobStore } from "../../../storage/index";
import type { Logger } from "~/services/platform/logger.server";
import { releaseQuota } from "~/services/billing/quota.server";
import { isDueSql } from "~/services/retention/expiry.server";
import { JOB_LOCKS, runExclusively } from "~/services/platform/job-lock.server";
import { onDemandVariantBytes } from "~/services/media/transforms.server";
import type { FileId } from "~/lib/ids";

const BATCH = 200;

export interface SweepDeps {
  db: Db;
  dbKind: DbKind;
  blobs: BlobStore;
  logger: Logger;
}

export interface SweepOptions {
  now?: Date;
  /** Stops between files; what was deleted so far is complete and consistent. */
  signal?: AbortSignal;
  /**
   * Runs after the sweep, still under its lock, and only on the instance that swept (the expiry
   * e-mails): so no other instance mails about files while they are being deleted.
   */
  afterSweep?: (now: Date) => Promise<unknown>;
}

export interface SweepResult {
  /** False when another instance holds the sweep lock. */
  ran: boolean;
  deletedFiles: number;
  deletedBlobs: number;
}

/** Deletes queued blobs (from this sweep or one interrupted earlier) and unqueues them. */
export async function drainBlobDeletions(db: Db, blobs: BlobStore, signal?: AbortSignal): Promise<number> {
  let deleted = 0;
  for (;;) {
    const keys = await db.selectFrom("blob_deletions").select("storage_key").orderBy("created_at").limit(BATCH).execute();
    if (keys.length === 0) return deleted;
    for (const { storage_key } of keys) {
      if (signal?.aborted) return deleted;
      await blobs.delete(storage_key);
      await db.deleteFrom("blob_deletions").where("storage_key", "=", storage_key).execute();
      deleted += 1;
    }
  }
}

/**
 * Deletes one expired file in its own transaction: row, variants, account and server usage
 * go together, and its blob keys are queued for deletion after the commit. Returns false when
 * the file is gone or no longer due (an upgrade cleared its expiry meanwhile).
 */
async function deleteExpiredFile(db: Db, fileId: FileId, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const file = await trx
      .selectFrom("files as f")
      .leftJoin("retention_rules as r", (j) => j.onRef("r.server_id", "=", "f.server_id").onRef("r.category", "=", "f.category"))
      .select(["f.id", "f.team_id", "f.server_id", "f.storage_key", "f.size_bytes"])
      .where("f.id", "=", fileId)
      .where(isDueSql(now))
      .forUpdate("f")
      .skipLocked()
      .executeTakeFirst();
    if (!file) return false;
    const variants = await trx.selectFrom("file_variants").select("storage_key").where("file_id", "=", file.id).execute();
    const released = Number(file.size_bytes) + (await onDemandVariantBytes(trx, { fileId: file.id }));
    const keys = [file.storage_key, ...variants.map((v) => v.storage_key)];
    await trx
      .insertInto("blob_deletions")
      .values(keys.map((storage_key) => ({ storage_key, created_at: now })))
      .onConflict((oc) => oc.column("storage_key").doNothing())
      .execute();
    await trx.deleteFrom("files").where("id", "=", file.id).execute();
    await releaseQuota(trx, file.team_id, released);
    await trx
      .updateTable("servers")
      .set({ storage_used_bytes: sql`greatest(storage_used_bytes - ${released}::bigint, 0)` })
      .where("id", "=", file.server_id)
      .execute();
    return true;
  });
}

async function sweepThenFollowUp(deps: SweepDeps, options: SweepOptions, now: Date): Promise<SweepResult> {
  const result = await sweepUnlocked(deps, options, now);
  if (options.afterSweep && !options.signal?.aborted) await options.afterSweep(now);
  return result;
}

async function sweepUnlocked(deps: SweepDeps, options: SweepOptions, now: Date): Promise<SweepResult> {
  let deletedBlobs = await drainBlobDeletions(deps.db, deps.blobs, options.signal);
  let deletedFiles = 0;
  const skipped = new Set<FileId>();
  for (;;) {
    if (options.signal?.aborted) break;
    const due = await deps.db
      .selectFrom("files as f")
      .leftJoin("retention_rules as r", (j) => j.onRef("r.server_id", "=", "f.server_id").onRef("r.category", "=", "f.category"))
      .select("f.id")
      .where(isDueSql(now))
      .$if(skipped.size > 0, (q) => q.where("f.id", "not in", [...skipped]))
      .limit(BATCH)
      .execute();
    if (due.length === 0) break;
    for (const { id } of due) {
      if (options.signal?.aborted) break;
      if (await deleteExpiredFile(deps.db, id, now)) deletedFiles += 1;
      else skipped.add(id);
      deletedBlobs += await drainBlobDeletions(deps.db, deps.blobs, options.signal);
    }
  }
  if (deletedFiles) deps.logger.info({ deletedFiles, deletedBlobs }, "retention sweep deleted expired files");
  return { ran: true, deletedFiles, deletedBlobs };
}

/** One sweep over expired files, on one instance at a time (see runExclusively). */
export async function sweepExpiredFiles(deps: SweepDeps, options: SweepOptions = {}): Promise<SweepResult> {
  const now = options.now ?? new Date();
  const run = await runExclusively(deps.db, deps.dbKind, JOB_LOCKS.retentionSweep, () => sweepThenFollowUp(deps, options, now));
  return run.ran ? run.result : { ran: false, deletedFiles: 0, deletedBlobs: 0 };
}
