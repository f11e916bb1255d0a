import type { Db } from "../../../db/index";
import type { AppContext } from "~/services/app-context.server";
import { JOB_LOCKS, runExclusively } from "~/services/platform/job-lock.server";
import { ORPHAN_MIN_AGE_MS, sweepOrphanBlobs } from "~/services/maintenance/orphan-sweep.server";
import { checkStoredFiles } from "~/services/maintenance/storage-check.server";
import { DAY_MS } from "~/lib/durations";

/** Reports kept: about four days of hourly runs. */
const REPORTS_KEPT = 100;

type ReconcileDeps = Pick<AppContext, "db" | "dbKind" | "blobs" | "logger" | "config">;

/**
 * How old a temp file or S3 multipart upload must be before it is taken for a leftover: older than
 * any upload may still be arriving (REQUEST_TIMEOUT_S), on this instance or another sharing the store.
 */
export function incompleteUploadGraceMs(config: ReconcileDeps["config"]): number {
  const requestMs = config.REQUEST_TIMEOUT_S > 0 ? config.REQUEST_TIMEOUT_S * 1000 : DAY_MS;
  return requestMs + 5 * 60_000;
}

export interface ReconcileResult {
  ran: boolean;
  incompleteRemoved: number;
  orphansRemoved: number;
  filesMissing: number;
}

export interface StorageReport {
  checked_at: Date;
  files_checked: number;
  files_missing: number;
  bytes_missing: number;
}

/**
 * What crashes and lost disks leave, handled on one instance at a time: temp files and S3 multipart
 * uploads of interrupted uploads and blobs no file or variant row points at are removed; file rows
 * whose blob is gone are counted and reported (storage_reports → /metrics, the admin dashboard), not
 * deleted — that is the operator's call (`cli storage:check --repair`).
 */
export async function reconcileStorage(deps: ReconcileDeps, options: { incompleteGraceMs?: number; orphanMinAgeMs?: number } = {}): Promise<ReconcileResult> {
  const run = await runExclusively(deps.db, deps.dbKind, JOB_LOCKS.storageReconcile, async () => {
    const incompleteRemoved = await deps.blobs.sweepIncomplete(options.incompleteGraceMs ?? incompleteUploadGraceMs(deps.config));
    const orphansRemoved = await sweepOrphanBlobs(deps, options.orphanMinAgeMs ?? ORPHAN_MIN_AGE_MS);
    if (incompleteRemoved) deps.logger.info({ incompleteRemoved }, "removed leftovers of interrupted uploads");
    const check = await checkStoredFiles(deps);
    const bytesMissing = check.missing.reduce((sum, file) => sum + file.size_bytes, 0);
    if (check.missing.length) {
      deps.logger.error(
        { filesMissing: check.missing.length, bytesMissing, sample: check.missing.slice(0, 10).map((f) => f.path) },
        "file rows whose bytes are gone from storage; repair with `npm run cli -- storage:check --repair`",
      );
    }
    await recordStorageReport(deps.db, {
      files_checked: check.checked,
      files_missing: check.missing.length,
      bytes_missing: bytesMissing,
      incomplete_removed: incompleteRemoved,
      orphans_removed: orphansRemoved,
    });
    return { incompleteRemoved, orphansRemoved, filesMissing: check.missing.length };
  });
  return run.ran ? { ran: true, ...run.result } : { ran: false, incompleteRemoved: 0, orphansRemoved: 0, filesMissing: 0 };
}

async function recordStorageReport(
  db: Db,
  report: Pick<StorageReport, "files_checked" | "files_missing" | "bytes_missing"> & { incomplete_removed: number; orphans_removed: number },
): Promise<void> {
  await db.insertInto("storage_reports").values(report).execute();
  await db
    .deleteFrom("storage_reports")
    .where("id", "not in", (eb) => eb.selectFrom("storage_reports").select("id").orderBy("id", "desc").limit(REPORTS_KEPT))
    .execute();
}

/** The newest reconcile's findings, or undefined before the first run. */
export async function latestStorageReport(db: Db): Promise<StorageReport | undefined> {
  return db
    .selectFrom("storage_reports")
    .select(["checked_at", "files_checked", "files_missing", "bytes_missing"])
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}
