import type { Db } from "../../../db/index";
import type { Config } from "~/services/platform/env.server";
import { getAccountQuota } from "~/services/billing/quota.server";
import { getBilling } from "~/services/billing/stripe-client.server";
import { checkSubscription } from "~/services/billing/subscriptions.server";
import type { TeamId } from "~/lib/ids";

/** Everything the Billing screen shows, read in one go. */
export async function loadBillingPage(db: Db, config: Config, teamId: TeamId, now: Date = new Date()) {
  const [subscription, quota, addons] = await Promise.all([
    checkSubscription(db, teamId, now),
    getAccountQuota(db, teamId, now),
    db
      .selectFrom("storage_addons")
      .select(["gb", "expires_at"])
      .where("team_id", "=", teamId)
      .where((w) => w.or([w("expires_at", "is", null), w("expires_at", ">", now)]))
      .orderBy("created_at")
      .execute(),
  ]);
  return {
    subscription,
    usedBytes: quota.usedBytes,
    addons: addons.map((a) => ({ gb: a.gb, expiresAt: a.expires_at ? a.expires_at.toISOString() : null })),
    stripeEnabled: Boolean(getBilling(config)),
  };
}
