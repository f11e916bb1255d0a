import type { AppContext } from "./app-context.server.ts";
import { JOB_LOCKS, runExclusively } from "./job-lock.server.ts";
import { ORPHAN_MIN_AGE_MS, sweepOrphanBlobs } from "./orphan-sweep.server.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

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
}

/**
 * What crashes leave in the blob store, removed on one instance at a time: temp files and S3
 * multipart uploads of interrupted uploads, and blobs no file or variant row points at.
 */
export async function reconcileStorage(deps: ReconcileDeps, options: { incompleteGraceMs?: number; orphanMinAgeMs?: number } = {}): Promise<ReconcileResult> {
  const run = await runExclusively(deps.db, deps.dbKind, JOB_LOCKS.storageReconcile, async () => {
    const incompleteRemoved = await deps.blobs.sweepIncomplete(options.incompleteGraceMs ?? incompleteUploadGraceMs(deps.config));
    const orphansRemoved = await sweepOrphanBlobs(deps, options.orphanMinAgeMs ?? ORPHAN_MIN_AGE_MS);
    if (incompleteRemoved) deps.logger.info({ incompleteRemoved }, "removed leftovers of interrupted uploads");
    return { incompleteRemoved, orphansRemoved };
  });
  return run.ran ? { ran: true, ...run.result } : { ran: false, incompleteRemoved: 0, orphansRemoved: 0 };
}
