import type { AppContext } from "./app-context.server.ts";
import { sendExpiryNotices } from "./expiry-notices.server.ts";
import { sendMail } from "./mail.server.ts";
import { startRetentionSweeper, SWEEP_INTERVAL_MS, type RetentionSweeper } from "./retention-sweep.server.ts";

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

/** The background retention work server.ts runs: the sweep, then the expiry e-mails. */
export function startRetentionJobs(ctx: AppContext, intervalMs: number = SWEEP_INTERVAL_MS): RetentionSweeper {
  return startRetentionSweeper(ctx, intervalMs, (now) => mailExpiryNotices(ctx, now));
}
