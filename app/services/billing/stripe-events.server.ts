import { DomainError } from "~/services/platform/domain-error.server";
import type Stripe from "stripe";
import type { Db } from "../../../db/index";
import { isPaidTier, type PaidTier } from "~/lib/plans";
import { tierForPrice } from "~/services/billing/checkout.server";
import type { Logger } from "~/services/platform/logger.server";
import type { Billing } from "~/services/billing/stripe-client.server";
import {
  currentCycleEnd,
  findTeamIdByStripeCustomer,
  grantStorageAddon,
  isLiveStatus,
  setTeamPlan,
} from "~/services/billing/subscriptions.server";
import type { TeamId } from "~/lib/ids";
import { parseId } from "~/services/platform/ids.server";

/** Checks the Stripe-Signature header against the raw body, exactly as received. */
export function verifyWebhook(billing: Billing, rawBody: Buffer, signature: string | null): Stripe.Event {
  if (!signature) throw new DomainError("invalid_signature", "Missing Stripe-Signature header");
  try {
    return billing.stripe.webhooks.constructEvent(rawBody, signature, billing.webhookSecret);
  } catch (error) {
    throw new DomainError("invalid_signature", error instanceof Error ? error.message : "Invalid signature");
  }
}

type Effect =
  | { kind: "subscription"; subscription: Stripe.Subscription }
  | { kind: "addon"; teamId: TeamId; gb: number; reference: string }
  | { kind: "none" };

export type WebhookOutcome = "processed" | "duplicate";

/** The team a checkout or subscription is for; customers made before teams carry `user_id`, which their personal team's id took. */
const teamIdOf = (metadata: Stripe.Metadata | null | undefined) => parseId<TeamId>(metadata?.team_id ?? metadata?.user_id);
const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : value?.id);

/**
 * Events can arrive late or out of order, so a subscription event is never applied from its
 * own payload: the subscription is read again from Stripe and its current state is applied.
 */
async function readSubscription(billing: Billing, id: string, fallback?: Stripe.Subscription): Promise<Stripe.Subscription> {
  try {
    return await billing.stripe.subscriptions.retrieve(id);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404 && fallback) return { ...fallback, status: "canceled" };
    throw error;
  }
}

function invoiceSubscriptionId(invoice: Stripe.Invoice): string | undefined {
  const fromParent = idOf(invoice.parent?.subscription_details?.subscription);
  // Older API versions put the subscription on the invoice itself.
  return fromParent ?? idOf((invoice as unknown as { subscription?: string | { id: string } }).subscription);
}

async function effectOf(billing: Billing, event: Stripe.Event): Promise<Effect> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = event.data.object;
      const subscriptionId = idOf(session.subscription);
      if (session.mode === "subscription" && subscriptionId) {
        return { kind: "subscription", subscription: await readSubscription(billing, subscriptionId) };
      }
      const gb = Number(session.metadata?.storage_gb);
      const teamId = teamIdOf(session.metadata);
      if (session.mode === "payment" && session.metadata?.kind === "storage_addon" && session.payment_status === "paid" && teamId && Number.isInteger(gb) && gb > 0) {
        return { kind: "addon", teamId, gb, reference: session.id };
      }
      return { kind: "none" };
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
    case "customer.subscription.paused":
    case "customer.subscription.resumed": {
      const subscription = event.data.object;
      return { kind: "subscription", subscription: await readSubscription(billing, subscription.id, subscription) };
    }
    case "invoice.paid":
    case "invoice.payment_succeeded":
    case "invoice.payment_failed": {
      const id = invoiceSubscriptionId(event.data.object);
      return id ? { kind: "subscription", subscription: await readSubscription(billing, id) } : { kind: "none" };
    }
    default:
      return { kind: "none" };
  }
}

function periodEnd(subscription: Stripe.Subscription): Date | null {
  const seconds =
    subscription.items?.data?.[0]?.current_period_end ??
    (subscription as unknown as { current_period_end?: number }).current_period_end;
  return seconds ? new Date(seconds * 1000) : null;
}

async function subscriptionTier(billing: Billing, subscription: Stripe.Subscription): Promise<PaidTier | undefined> {
  const price = subscription.items?.data?.[0]?.price;
  const fromPrice = price ? await tierForPrice(billing, price) : undefined;
  if (fromPrice) return fromPrice;
  const fromMetadata = subscription.metadata?.tier;
  return isPaidTier(fromMetadata) ? fromMetadata : undefined;
}

async function applySubscription(db: Db, billing: Billing, logger: Logger, subscription: Stripe.Subscription, now: Date) {
  const customerId = idOf(subscription.customer);
  const teamId = teamIdOf(subscription.metadata) ?? (customerId ? await findTeamIdByStripeCustomer(db, customerId) : undefined);
  const team = teamId ? await db.selectFrom("teams").select("id").where("id", "=", teamId).executeTakeFirst() : undefined;
  if (!team) {
    logger.warn({ subscription: subscription.id, customer: customerId }, "stripe subscription for an unknown team ignored");
    return;
  }
  const stored = await db
    .selectFrom("subscriptions")
    .select(["stripe_subscription_id", "tier", "status"])
    .where("team_id", "=", team.id)
    .executeTakeFirst();
  const tier = await subscriptionTier(billing, subscription);
  if (isLiveStatus(subscription.status) && tier) {
    await setTeamPlan(
      db,
      team.id,
      { tier, status: subscription.status, stripeCustomerId: customerId ?? null, stripeSubscriptionId: subscription.id, currentPeriodEnd: periodEnd(subscription) },
      now,
    );
    return;
  }
  // An older subscription ending must not take away the plan a newer one pays for.
  const isCurrent = !stored?.stripe_subscription_id || stored.stripe_subscription_id === subscription.id;
  const currentIsLive = stored && stored.tier !== "free" && isLiveStatus(stored.status);
  if (!isCurrent && currentIsLive) return;
  await setTeamPlan(
    db,
    team.id,
    { tier: "free", status: subscription.status, stripeCustomerId: customerId ?? null, stripeSubscriptionId: subscription.id, currentPeriodEnd: null },
    now,
  );
}

/**
 * Applies one verified event exactly once. The stripe_events insert and the state change share
 * a transaction: a second delivery of the same id, even one arriving at the same moment, waits
 * on the primary key and then finds the id taken.
 */
export async function handleStripeEvent(
  db: Db,
  billing: Billing,
  logger: Logger,
  event: Stripe.Event,
  now: Date = new Date(),
): Promise<WebhookOutcome> {
  const seen = await db.selectFrom("stripe_events").select("id").where("id", "=", event.id).executeTakeFirst();
  if (seen) return "duplicate";
  const effect = await effectOf(billing, event);
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto("stripe_events")
      .values({ id: event.id, type: event.type, processed_at: now })
      .onConflict((oc) => oc.column("id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!claimed) return "duplicate";
    if (effect.kind === "subscription") await applySubscription(trx, billing, logger, effect.subscription, now);
    if (effect.kind === "addon") {
      const team = await trx.selectFrom("teams").select("id").where("id", "=", effect.teamId).executeTakeFirst();
      if (team) {
        const expiresAt = await currentCycleEnd(trx, team.id, now);
        await grantStorageAddon(trx, { teamId: team.id, gb: effect.gb, expiresAt, stripeReference: effect.reference });
      } else {
        logger.warn({ session: effect.reference }, "storage purchase for an unknown team ignored");
      }
    }
    return "processed";
  });
}
