import type { AppContext } from "~/services/app-context.server";
import { sendExpiryNotices } from "~/services/retention/expiry-notices.server";
import { startJobQueue, type JobDefinition, type JobQueue, type JobQueueOptions } from "~/services/platform/job-queue.server";
import { sendMail } from "~/services/platform/mail.server";
import { deleteExpiredResumableUploads } from "~/services/uploads/resumable.server";
import { sweepExpiredFiles } from "~/services/retention/sweep.server";
import { purgeExpiredSessions } from "~/services/accounts/session-purge.server";
import { purgeAuditEntries } from "~/services/platform/audit-trail.server";
import { ensureLogPartitions, purgeLogEntries } from "~/services/logs/log-partitions.server";
import { deliverLogForwards } from "~/services/logs/log-forwards.server";
import { evaluateLogAlerts } from "~/services/logs/log-alerts.server";
import { reconcileStorage } from "~/services/maintenance/storage-reconcile.server";
import { recordStatusSample, SAMPLE_EVERY_MINUTES } from "~/services/maintenance/uptime.server";
import { makeVideoCopies } from "~/services/media/video-copies.server";
import { IMPORTS_JOB, runImportJobs } from "~/services/imports/import-runner.server";
import { DAY_MS } from "~/lib/durations";

/** The e-mails about files expiring soon, sent after each sweep. */
export function mailExpiryNotices(ctx: Pick<AppContext, "db" | "config" | "logger">, now: Date): Promise<number> {
  return sendExpiryNotices(ctx.db, {
    now,
    appName: ctx.config.APP_NAME,
    appUrl: ctx.config.appUrl,
    send: async (notice) => {
      await sendMail(ctx, { ...notice, link: `${ctx.config.appUrl}/gallery` });
    },
  });
}

export const BACKGROUND_JOBS = {
  retentionSweep: "retention-sweep",
  sessionPurge: "session-purge",
  storageReconcile: "storage-reconcile",
  resumableCleanup: "resumable-cleanup",
  statusSample: "status-sample",
  videoCopies: "video-copies",
  logDelivery: "log-delivery",
  imports: IMPORTS_JOB,
} as const;

/** An import run looks for new imports for most of its minute, and hands what is unfinished on after five. */
const IMPORT_LINGER_MS = 50_000;
const IMPORT_RUN_MS = 5 * 60_000;

/** The log delivery run lasts most of its minute, sending the forwards' outbox every second. */
const LOG_DELIVERY_RUN_MS = 50_000;
const LOG_DELIVERY_EVERY_MS = 1_000;

/**
 * The background work every instance offers to the one job queue: the retention sweep every 10
 * minutes, followed, in the same run, by the e-mails about files expiring soon; the purge of
 * expired sessions (and of audit entries past their plan's retention), the storage reconciler
 * (leftovers of interrupted uploads, blobs without rows) and the removal of resumable uploads
 * abandoned for a day, hourly; a health sample for /status every five minutes; MP4 copies of
 * queued videos every minute, one encode at a time; log alerts every minute, with the log forwards'
 * outbox sent to Discord every second of that run; imports every minute, each run watching for new
 * ones for most of its minute. Each also runs at start (which finishes what a crash interrupted).
 */
export function backgroundJobDefinitions(ctx: AppContext): JobDefinition[] {
  return [
    {
      name: BACKGROUND_JOBS.retentionSweep,
      cron: "*/10 * * * *",
      runAtStart: true,
      expireInSeconds: 30 * 60,
      run: async (signal) => {
        await sweepExpiredFiles(ctx, { now: new Date(), signal, afterSweep: (now) => mailExpiryNotices(ctx, now) });
      },
    },
    {
      name: BACKGROUND_JOBS.sessionPurge,
      cron: "17 * * * *",
      runAtStart: true,
      expireInSeconds: 15 * 60,
      run: async () => {
        const deleted = await purgeExpiredSessions(ctx.db);
        if (deleted) ctx.logger.info({ deleted }, "purged expired sessions");
        const audit = await purgeAuditEntries(ctx.db);
        if (audit) ctx.logger.info({ deleted: audit }, "purged audit entries past their plan's retention");
        const now = new Date();
        // Tomorrow's partition exists before the first entry of the day arrives.
        await ensureLogPartitions(ctx.db, now, new Date(now.getTime() + DAY_MS));
        const logs = await purgeLogEntries(ctx.db, now);
        if (logs.dropped.length || logs.deleted) ctx.logger.info(logs, "dropped log partitions and entries past their dataset's retention");
      },
    },
    {
      name: BACKGROUND_JOBS.resumableCleanup,
      cron: "23 * * * *",
      runAtStart: true,
      expireInSeconds: 15 * 60,
      run: async () => {
        const deleted = await deleteExpiredResumableUploads(ctx.config);
        if (deleted) ctx.logger.info({ deleted }, "deleted expired partial resumable uploads");
      },
    },
    {
      name: BACKGROUND_JOBS.statusSample,
      cron: `*/${SAMPLE_EVERY_MINUTES} * * * *`,
      runAtStart: true,
      expireInSeconds: 4 * 60,
      run: () => recordStatusSample(ctx),
    },
    {
      name: BACKGROUND_JOBS.videoCopies,
      cron: "* * * * *",
      runAtStart: true,
      expireInSeconds: 30 * 60,
      run: async (signal) => {
        const made = await makeVideoCopies(ctx, signal);
        if (made) ctx.logger.info({ made }, "made MP4 copies of videos");
      },
    },
    {
      name: BACKGROUND_JOBS.logDelivery,
      cron: "* * * * *",
      runAtStart: true,
      expireInSeconds: 5 * 60,
      run: async (signal) => {
        const until = Date.now() + LOG_DELIVERY_RUN_MS;
        let alertsChecked = false;
        while (!signal.aborted && Date.now() < until) {
          // A database outage must not end the run (nor reach pg-boss as a failure it records unawaited): the next second tries again.
          try {
            if (!alertsChecked) {
              const alerts = await evaluateLogAlerts(ctx);
              if (alerts.fired.length) ctx.logger.info({ fired: alerts.fired }, "log alerts fired");
              alertsChecked = true;
            }
            await deliverLogForwards(ctx);
          } catch (error) {
            ctx.logger.warn({ err: error }, "log delivery round failed; trying again in a second");
          }
          await new Promise((resolve) => setTimeout(resolve, LOG_DELIVERY_EVERY_MS));
        }
      },
    },
    {
      name: BACKGROUND_JOBS.imports,
      cron: "* * * * *",
      runAtStart: true,
      expireInSeconds: 10 * 60,
      run: (signal) => runImportJobs(ctx, signal, ctx.config.JOBS_MODE === "manual" ? { lingerMs: 0 } : { lingerMs: IMPORT_LINGER_MS, maxRunMs: IMPORT_RUN_MS }),
    },
    {
      name: BACKGROUND_JOBS.storageReconcile,
      cron: "41 * * * *",
      runAtStart: true,
      expireInSeconds: 60 * 60,
      run: async () => {
        await reconcileStorage(ctx);
      },
    },
  ];
}

/** Starts this instance's workers and scheduler on the shared queue; server.ts stops them on close. */
export function startBackgroundJobs(ctx: AppContext, options: JobQueueOptions = {}): Promise<JobQueue> {
  return startJobQueue(ctx.db, ctx.dbKind, ctx.logger, backgroundJobDefinitions(ctx), { setupLockTimeoutMs: ctx.config.STARTUP_LOCK_TIMEOUT_S * 1000, ...options });
}
