import type { Db } from "../../../db/index";
import { GB, isPaidTier, PLANS, type Tier } from "~/lib/plans";
import { recordAudit } from "~/services/platform/audit-trail.server";
import { getAccountQuota } from "~/services/billing/quota.server";
import type { TeamId, UserId } from "~/lib/ids";

/** Stripe statuses that keep a paid plan's storage; past_due is Stripe's retry window. */
const LIVE_STATUSES = new Set(["active", "trialing", "past_due"]);

export function isLiveStatus(status: string): boolean {
  return LIVE_STATUSES.has(status);
}

/** The check-subscription answer (customer-portal spec §3, "Subscription state"). */
export interface SubscriptionState {
  subscribed: boolean;
  subscription_tier: Tier;
  subscription_end: string | null;
  storage_quota_gb: number;
}

export async function checkSubscription(db: Db, teamId: TeamId, now: Date = new Date()): Promise<SubscriptionState> {
  const [row, quota] = await Promise.all([
    db.selectFrom("subscriptions").select(["tier", "status", "current_period_end"]).where("team_id", "=", teamId).executeTakeFirst(),
    getAccountQuota(db, teamId, now),
  ]);
  const tier = quota.tier;
  return {
    subscribed: tier !== "free" && isLiveStatus(row?.status ?? "active"),
    subscription_tier: tier,
    subscription_end: row?.current_period_end ? row.current_period_end.toISOString() : null,
    storage_quota_gb: quota.quotaBytes / GB,
  };
}

export interface PlanChange {
  tier: Tier;
  status?: string;
  stripeCustomerId?: string | null;
  stripeSubscriptionId?: string | null;
  currentPeriodEnd?: Date | null;
  /** Who changed it, for the audit trail: an admin; absent for Stripe's events (recorded as Stash). */
  by?: { userId: UserId; ip: string | null };
}

/**
 * Puts a team on a plan (webhooks, the admin screen, the CLI). Moving to a paid plan lifts the
 * free plan's 30-day expiry from the team's files; per-category retention rules still apply,
 * because the sweep evaluates them itself. Moving down deletes nothing.
 */
export async function setTeamPlan(db: Db, teamId: TeamId, change: PlanChange, now: Date = new Date()): Promise<void> {
  const values = {
    tier: change.tier,
    status: change.status ?? "active",
    current_period_end: change.currentPeriodEnd ?? null,
    updated_at: now,
    ...(change.stripeCustomerId !== undefined ? { stripe_customer_id: change.stripeCustomerId } : {}),
    ...(change.stripeSubscriptionId !== undefined ? { stripe_subscription_id: change.stripeSubscriptionId } : {}),
  };
  const before = await db.selectFrom("subscriptions").select(["tier", "status"]).where("team_id", "=", teamId).executeTakeFirst();
  await db
    .insertInto("subscriptions")
    .values({ team_id: teamId, ...values })
    .onConflict((oc) => oc.column("team_id").doUpdateSet(values))
    .execute();
  if (isPaidTier(change.tier) && isLiveStatus(values.status)) await clearPlanExpiry(db, teamId);
  // Stripe repeats a subscription's state in many events; the trail records changes only.
  if (before?.tier !== values.tier || before?.status !== values.status) {
    await recordAudit(db, {
      teamId,
      actorUserId: change.by?.userId ?? null,
      ip: change.by?.ip ?? null,
      action: "plan.change",
      target: `${PLANS[values.tier].name} plan${values.status === "active" ? "" : ` (${values.status})`}`,
      detail: { tier: values.tier, plan_status: values.status, previous: before ? { tier: before.tier, plan_status: before.status } : null },
    });
  }
}

export async function clearPlanExpiry(db: Db, teamId: TeamId): Promise<void> {
  await db
    .updateTable("files")
    .set({ expires_at: null, expiry_notified_at: null })
    .where("team_id", "=", teamId)
    .where("expires_at", "is not", null)
    .execute();
}

/** Records the Stripe customer of a user, creating the subscriptions row when missing. */
export async function saveStripeCustomer(db: Db, teamId: TeamId, customerId: string): Promise<void> {
  await db
    .insertInto("subscriptions")
    .values({ team_id: teamId, stripe_customer_id: customerId, updated_at: new Date() })
    .onConflict((oc) => oc.column("team_id").doUpdateSet({ stripe_customer_id: customerId, updated_at: new Date() }))
    .execute();
}

export async function findTeamIdByStripeCustomer(db: Db, customerId: string): Promise<TeamId | undefined> {
  const row = await db.selectFrom("subscriptions").select("team_id").where("stripe_customer_id", "=", customerId).executeTakeFirst();
  return row?.team_id;
}

export interface AddonGrant {
  teamId: TeamId;
  gb: number;
  expiresAt: Date | null;
  /** The Checkout session id; unique, so a replayed purchase adds nothing. */
  stripeReference: string | null;
}

/** Adds storage to an account; false when this Stripe purchase was already recorded. */
export async function grantStorageAddon(db: Db, grant: AddonGrant): Promise<boolean> {
  const inserted = await db
    .insertInto("storage_addons")
    .values({ team_id: grant.teamId, gb: grant.gb, expires_at: grant.expiresAt, stripe_reference: grant.stripeReference })
    .onConflict((oc) => oc.column("stripe_reference").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) {
    await recordAudit(db, { teamId: grant.teamId, actorUserId: null, ip: null, action: "plan.addon", target: `${grant.gb} GB extra storage`, detail: { gb: grant.gb, reference: grant.stripeReference } });
  }
  return Boolean(inserted);
}

/**
 * The end of the user's current billing cycle, when an add-on bought now expires: the paid
 * subscription's period end, or for accounts without one a month from now.
 */
export async function currentCycleEnd(db: Db, teamId: TeamId, now: Date = new Date()): Promise<Date> {
  const row = await db.selectFrom("subscriptions").select(["tier", "status", "current_period_end"]).where("team_id", "=", teamId).executeTakeFirst();
  if (row && row.tier !== "free" && isLiveStatus(row.status) && row.current_period_end && row.current_period_end > now) {
    return row.current_period_end;
  }
  const end = new Date(now);
  end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}

/**
 * Sets the storage an administrator grants by hand (no Stripe reference, no expiry), replacing
 * any earlier manual grant; purchased add-ons are left alone.
 */
export async function setManualAddonGb(db: Db, teamId: TeamId, gb: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("storage_addons").where("team_id", "=", teamId).where("stripe_reference", "is", null).execute();
    if (gb > 0) await trx.insertInto("storage_addons").values({ team_id: teamId, gb, expires_at: null }).execute();
  });
}
