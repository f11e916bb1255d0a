import { sql } from "kysely";
import type { Db } from "./index.ts";

/** What the start-up locks say while they wait; the app passes its pino logger. */
export interface StartupLog {
  info(detail: object, message: string): void;
  warn(detail: object, message: string): void;
}

export interface StartupLock {
  /** Any fixed 64-bit number; the same in every instance. */
  key: bigint;
  /** Named in log lines and the give-up error ("migration", "job queue setup"). */
  name: string;
  /** Longest this instance waits for another to finish before it gives up and exits. */
  timeoutMs: number;
  log?: StartupLog;
}

const POLL_MS = 100;
const REPORT_EVERY_MS = 10_000;

/** Which backend holds a session advisory lock on a bigint key (classid = high 32 bits, objid = low 32 bits). */
async function holderOf(conn: Db, key: bigint): Promise<number | null> {
  const { rows } = await sql<{ pid: number }>`
    SELECT pid FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND objsubid = 1
      AND ((classid::bigint << 32) | objid::bigint) = ${key}::bigint
    LIMIT 1`.execute(conn);
  return rows[0]?.pid ?? null;
}

export class StartupLockTimeoutError extends Error {
  constructor(lock: StartupLock, holder: number | null) {
    super(
      `Gave up after ${Math.round(lock.timeoutMs / 1000)} s waiting for the ${lock.name} lock` +
        `${holder ? ` (held by PostgreSQL backend ${holder})` : ""}: another instance is still at it. ` +
        `Start this instance again once it is done, or raise STARTUP_LOCK_TIMEOUT_S.`,
    );
    this.name = "StartupLockTimeoutError";
  }
}

/**
 * Runs `work` while this instance holds a session advisory lock taken on `conn`, a connection pinned
 * for the purpose (the work may use it or the pool). Instances starting together queue here one after
 * another: the wait is bounded by `timeoutMs` and logged — once when it starts, every 10 s while it
 * lasts, and when the lock is taken — so an operator sees who waits for whom instead of a silent hang.
 */
export async function withStartupLock<T>(conn: Db, lock: StartupLock, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  let reported = 0;
  for (;;) {
    const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(${lock.key}::bigint) AS locked`.execute(conn);
    if (rows[0]?.locked) break;
    const waited = Date.now() - started;
    if (waited >= lock.timeoutMs) throw new StartupLockTimeoutError(lock, await holderOf(conn, lock.key));
    if (reported === 0 || waited - reported >= REPORT_EVERY_MS) {
      lock.log?.info({ lock: lock.name, holder_pid: await holderOf(conn, lock.key), waited_ms: waited }, `waiting for the ${lock.name} lock; another instance holds it`);
      reported = Math.max(waited, 1);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  if (reported) lock.log?.info({ lock: lock.name, waited_ms: Date.now() - started }, `took the ${lock.name} lock`);
  try {
    return await work();
  } finally {
    await sql`SELECT pg_advisory_unlock(${lock.key}::bigint)`.execute(conn);
  }
}
