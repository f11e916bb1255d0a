import type { Db } from "../../db/index.ts";
import type { Config } from "./env.server.ts";
import { getAccountQuota } from "./quota.server.ts";
import { getBilling } from "./stripe-client.server.ts";
import { checkSubscription } from "./subscriptions.server.ts";

/** Everything the Billing screen shows, read in one go. */
export async function loadBillingPage(db: Db, config: Config, userId: string, now: Date = new Date()) {
  const [subscription, quota, addons] = await Promise.all([
    checkSubscription(db, userId, now),
    getAccountQuota(db, userId, now),
    db
      .selectFrom("storage_addons")
      .select(["gb", "expires_at"])
      .where("user_id", "=", userId)
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
