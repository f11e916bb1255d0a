import { CompiledQuery } from "kysely";
import PgBoss from "pg-boss";
import type { Db, DbKind } from "../../../db/index";
import { withStartupLock } from "../../../db/startup-lock";
import type { Logger } from "~/services/platform/logger.server";

/** A kind of background work: its queue name, when it runs by itself, and what it does. */
export interface JobDefinition {
  name: string;
  /** Cron expression (UTC) for the runs pg-boss starts by itself; one instance creates each run. */
  cron: string;
  /** Also run once when an instance starts (skipped if a run is already queued). */
  runAtStart: boolean;
  /** Longest a run may take before pg-boss takes it for dead and lets another instance retry. */
  expireInSeconds: number;
  run(signal: AbortSignal): Promise<void>;
}

export interface JobQueue {
  /** Queues a run of `name` now; null when one is already queued (the queues are "stately"). */
  runSoon(name: string): Promise<string | null>;
  /**
   * Manual mode only: runs `name` in this process now and resolves when the run ends (rejects
   * with its error). Tests drive every job this way instead of waiting out the server's clocks.
   */
  runNow(name: string): Promise<void>;
  /** Stops polling and waits (bounded) for runs in progress. */
  stop(): Promise<void>;
}

export interface JobQueueOptions {
  /** How often an idle worker asks for work. */
  pollingIntervalSeconds?: number;
  /**
   * `scheduled` (production): pg-boss runs each job on its cron and once at start. `manual`
   * (tests): no queue, no schedule, nothing at start; a job runs only when `runNow` asks for it.
   */
  mode?: "scheduled" | "manual";
  /** Longest this instance waits for another's queue setup (STARTUP_LOCK_TIMEOUT_S). */
  setupLockTimeoutMs?: number;
}

function findJob(jobs: JobDefinition[], name: string): JobDefinition {
  const job = jobs.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no background job named ${name}`);
  return job;
}

/** Jobs under the caller's control: each runs, awaited, when asked, and never by itself. */
function startManualJobs(jobs: JobDefinition[]): JobQueue {
  const controller = new AbortController();
  const running = new Set<Promise<void>>();
  const runNow = async (name: string) => {
    const run = findJob(jobs, name).run(controller.signal);
    running.add(run);
    try {
      await run;
    } finally {
      running.delete(run);
    }
  };
  return {
    runSoon: () => Promise.reject(new Error("JOBS_MODE=manual queues nothing; run the job with runNow")),
    runNow,
    async stop() {
      controller.abort();
      await Promise.allSettled([...running]);
    },
  };
}

// Any fixed 64-bit number; the same in every instance.
const QUEUE_SETUP_LOCK_ID = 7_411_903_202_612n;
const DEFAULT_SETUP_LOCK_TIMEOUT_MS = 10 * 60_000;

/**
 * pg-boss's `create_queue` inserts the queue's row and then, in the same transaction, adds a foreign
 * key from the queue's new partition to `pgboss.queue`, which needs a SHARE ROW EXCLUSIVE lock on it.
 * A second instance creating the same queue at that moment holds ROW EXCLUSIVE on `pgboss.queue` (its
 * INSERT) while it waits for the first one's row: each waits for the other, and PostgreSQL ends one
 * with "deadlock detected" — the start of every instance but one, when several start together on an
 * empty database (docs/decisions/092). So pg-boss's start (its schema and the cron queue it creates)
 * and every queue and schedule of ours are made by one instance at a time; on PGlite there is one.
 */
async function setUpOnce(db: Db, dbKind: DbKind, logger: Logger, timeoutMs: number, setUp: () => Promise<void>): Promise<void> {
  if (dbKind === "pglite") return setUp();
  await db.connection().execute((conn) => withStartupLock(conn, { key: QUEUE_SETUP_LOCK_ID, name: "job queue setup", timeoutMs, log: logger }, setUp));
}

/**
 * pg-boss over the app's own database handle: PostgreSQL's pool, or the embedded PGlite, whose one
 * connection pg-boss then shares with requests. The queue's tables live in schema `pgboss`, which
 * pg-boss creates and migrates itself at start under its own advisory lock.
 */
function bossDb(db: Db, state: { stopped: boolean; inFlight: Set<Promise<unknown>> }): PgBoss.Db {
  return {
    async executeSql(text, values) {
      // pg-boss records a run's end without awaiting it, so a run cut by shutdown can report after the
      // queue stopped; once stopped nothing reaches the database (the run expires and is retried).
      // pg-boss reads a count row from the answer to complete/fail (`SELECT COUNT(*) FROM results`), so
      // those get a zero count rather than an empty answer it would crash on (an unhandled rejection).
      if (state.stopped) return /SELECT COUNT\(\*\) FROM results/i.test(text) ? { rows: [{ count: "0" }] as never[], rowCount: 0 } : { rows: [], rowCount: 0 };
      const query = db.executeQuery(CompiledQuery.raw(text, values ?? []));
      state.inFlight.add(query);
      try {
        const result = await query;
        return { rows: result.rows as unknown[] as never[], rowCount: Number(result.numAffectedRows ?? result.rows.length) };
      } finally {
        state.inFlight.delete(query);
      }
    },
  };
}

/**
 * One job queue for every instance sharing the database: each run of a job is taken by exactly
 * one worker across instances ("stately" queues hold at most one queued and one active run), cron
 * runs are created once however many instances run the scheduler, and a run whose instance died
 * expires and is retried elsewhere.
 */
export async function startJobQueue(db: Db, dbKind: DbKind, logger: Logger, jobs: JobDefinition[], options: JobQueueOptions = {}): Promise<JobQueue> {
  if (options.mode === "manual") return startManualJobs(jobs);
  const state = { stopped: false, inFlight: new Set<Promise<unknown>>() };
  const boss = new PgBoss({ db: bossDb(db, state), schedule: true, supervise: true, migrate: true });
  // The database may come and go (decision: database outages never end the process); pg-boss reports and retries.
  boss.on("error", (error) => logger.warn({ err: error }, "job queue error"));
  await setUpOnce(db, dbKind, logger, options.setupLockTimeoutMs ?? DEFAULT_SETUP_LOCK_TIMEOUT_MS, async () => {
    await boss.start();
    for (const job of jobs) {
      await boss.createQueue(job.name, { name: job.name, policy: "stately", expireInSeconds: job.expireInSeconds, retryLimit: 1, retryDelay: 60 });
      await boss.schedule(job.name, job.cron, {}, { tz: "UTC" });
    }
  });
  const controller = new AbortController();
  for (const job of jobs) {
    await boss.work(job.name, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 5 }, async () => {
      try {
        await job.run(controller.signal);
      } catch (error) {
        logger.error({ err: error, job: job.name }, "background job failed");
        throw error;
      }
    });
    if (job.runAtStart) await boss.send(job.name, {});
  }
  return {
    runSoon: (name) => boss.send(name, {}),
    runNow: () => Promise.reject(new Error("runNow needs JOBS_MODE=manual; scheduled jobs run through the queue (runSoon)")),
    async stop() {
      controller.abort();
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      state.stopped = true;
      await Promise.allSettled([...state.inFlight]);
    },
  };
}
