import { sql } from "kysely";
import type { Db, DbKind } from "../../../db/index";

/** Keys of the session advisory locks background jobs take; every instance must use the same ones. */
export const JOB_LOCKS = { retentionSweep: 7_060_001, storageReconcile: 7_060_002 } as const;

const localRuns = new Map<number, Promise<unknown>>();

/**
 * Runs `work` on one instance at a time: on PostgreSQL under a session advisory lock held on a
 * pinned connection (the work itself uses the pool); PGlite is one process, so an in-process guard
 * is enough. Returns `{ ran: false }` without waiting when another run holds the lock.
 */
export async function runExclusively<T>(db: Db, dbKind: DbKind, key: number, work: () => Promise<T>): Promise<{ ran: true; result: T } | { ran: false }> {
  if (dbKind === "pglite") {
    if (localRuns.has(key)) return { ran: false };
    const run = work();
    localRuns.set(key, run);
    try {
      return { ran: true, result: await run };
    } finally {
      localRuns.delete(key);
    }
  }
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(${key}) AS locked`.execute(conn);
    if (!rows[0]?.locked) return { ran: false as const };
    try {
      return { ran: true as const, result: await work() };
    } finally {
      await sql`SELECT pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}
