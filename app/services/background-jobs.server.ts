import type { AppContext } from "./app-context.server.ts";
import { sendExpiryNotices } from "./expiry-notices.server.ts";
import { sendMail } from "./mail.server.ts";
import { startRetentionSweeper, SWEEP_INTERVAL_MS } from "./retention-sweep.server.ts";
import type { RepeatingJob } from "./repeating-job.server.ts";
import { SESSION_PURGE_INTERVAL_MS, startSessionPurger } from "./session-purge.server.ts";
import { RECONCILE_INTERVAL_MS, startStorageReconciler } from "./storage-reconcile.server.ts";

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

export interface JobIntervals {
  sweepMs?: number;
  sessionPurgeMs?: number;
  reconcileMs?: number;
}

/**
 * The background work server.ts runs (and stops on close): the retention sweep, then the expiry
 * e-mails; and, each on a timer of its own so a long sweep never delays it, the purge of expired
 * sessions and the storage reconciler (leftovers of interrupted uploads, blobs without rows).
 */
export function startBackgroundJobs(ctx: AppContext, intervals: JobIntervals = {}): RepeatingJob {
  const sweeper = startRetentionSweeper(ctx, intervals.sweepMs ?? SWEEP_INTERVAL_MS, (now) => mailExpiryNotices(ctx, now));
  const purger = startSessionPurger(ctx, intervals.sessionPurgeMs ?? SESSION_PURGE_INTERVAL_MS);
  const reconciler = startStorageReconciler(ctx, intervals.reconcileMs ?? RECONCILE_INTERVAL_MS);
  return {
    async stop() {
      await Promise.all([sweeper.stop(), purger.stop(), reconciler.stop()]);
    },
  };
}
