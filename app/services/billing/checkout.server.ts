import type { Db } from "../../../db/index";
import { DomainError } from "~/services/platform/domain-error.server";
import { BILLING_MESSAGES } from "~/lib/billing-messages";
import { ADDON_MAX_GB, ADDON_MIN_GB, isPaidTier, PLANS, type PaidTier } from "~/lib/plans";
import { getAccountQuota } from "~/services/billing/quota.server";
import type { Billing } from "~/services/billing/stripe-client.server";
import { isLiveStatus, saveStripeCustomer } from "~/services/billing/subscriptions.server";
import type { TeamId } from "~/lib/ids";

/** Who pays: the team, with the e-mail and name Stripe shows on its customer. */
export interface BillingAccount {
  teamId: TeamId;
  email: string | null;
  name?: string | null;
}

async function resolvePriceId(billing: Billing, tier: PaidTier): Promise<string> {
  const cached = billing.priceIds.get(tier);
  if (cached) return cached;
  const configured = billing.prices[tier];
  if (!configured) throw new DomainError("plan_unavailable", `The ${PLANS[tier].name} plan is not available for purchase on this instance`);
  let id = configured;
  if (!configured.startsWith("price_")) {
    const found = await billing.stripe.prices.list({ lookup_keys: [configured], active: true, limit: 1 });
    const price = found.data[0];
    if (!price) throw new DomainError("billing_not_configured", `The ${PLANS[tier].name} plan is not available for purchase on this instance`);
    id = price.id;
  }
  billing.priceIds.set(tier, id);
  return id;
}

/** The tier a Stripe price stands for, by id or lookup key; undefined for prices we do not sell. */
export async function tierForPrice(billing: Billing, price: { id: string; lookup_key?: string | null }): Promise<PaidTier | undefined> {
  for (const tier of Object.keys(billing.prices) as PaidTier[]) {
    const configured = billing.prices[tier];
    if (!configured) continue;
    if (configured === price.id || configured === price.lookup_key || billing.priceIds.get(tier) === price.id) return tier;
  }
  return undefined;
}

async function ensureCustomer(db: Db, billing: Billing, account: BillingAccount): Promise<string> {
  const row = await db.selectFrom("subscriptions").select("stripe_customer_id").where("team_id", "=", account.teamId).executeTakeFirst();
  if (row?.stripe_customer_id) return row.stripe_customer_id;
  // The idempotency key makes two simultaneous first checkouts share one customer.
  const customer = await billing.stripe.customers.create(
    { email: account.email ?? undefined, name: account.name ?? undefined, metadata: { team_id: account.teamId } },
    { idempotencyKey: `stash-customer-${account.teamId}` },
  );
  await saveStripeCustomer(db, account.teamId, customer.id);
  return customer.id;
}

async function liveStripeSubscription(db: Db, teamId: TeamId): Promise<boolean> {
  const row = await db
    .selectFrom("subscriptions")
    .select(["tier", "status", "stripe_subscription_id"])
    .where("team_id", "=", teamId)
    .executeTakeFirst();
  return Boolean(row?.stripe_subscription_id && row.tier !== "free" && isLiveStatus(row.status));
}

export interface CheckoutInput {
  account: BillingAccount;
  tier: unknown;
  appUrl: string;
}

/**
 * A Checkout session URL for a paid tier. An account that already pays is sent to the Billing
 * Portal instead, where Stripe changes the plan with proration rather than adding a second
 * subscription.
 */
export async function createCheckout(db: Db, billing: Billing, input: CheckoutInput): Promise<{ url: string }> {
  if (!isPaidTier(input.tier)) throw new DomainError("plan_unavailable", "Please choose one of the paid plans");
  const tier = input.tier;
  if (await liveStripeSubscription(db, input.account.teamId)) return openCustomerPortal(db, billing, input);
  const price = await resolvePriceId(billing, tier);
  const customer = await ensureCustomer(db, billing, input.account);
  const metadata = { team_id: input.account.teamId, tier };
  const session = await billing.stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: input.account.teamId,
    line_items: [{ price, quantity: 1 }],
    metadata,
    subscription_data: { metadata },
    success_url: `${input.appUrl}/billing?success=true`,
    cancel_url: `${input.appUrl}/billing?canceled=true`,
  });
  if (!session.url) throw new DomainError("payment_provider_error", "Stripe did not return a checkout address");
  return { url: session.url };
}

export async function openCustomerPortal(db: Db, billing: Billing, input: { account: BillingAccount; appUrl: string }): Promise<{ url: string }> {
  const customer = await ensureCustomer(db, billing, input.account);
  const session = await billing.stripe.billingPortal.sessions.create({ customer, return_url: `${input.appUrl}/billing` });
  return { url: session.url };
}

export interface StoragePurchaseInput {
  account: BillingAccount;
  storageGb: unknown;
  appUrl: string;
}

/** Validates the requested amount: a whole number of GB from 1 to 1000. */
export function validateStorageGb(value: unknown): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < ADDON_MIN_GB || n > ADDON_MAX_GB) {
    throw new DomainError("invalid_request", BILLING_MESSAGES.invalidAmountMessage);
  }
  return n;
}

/** A one-time Checkout for GB × the account's tier rate; the webhook grants the storage. */
export async function purchaseStorage(db: Db, billing: Billing, input: StoragePurchaseInput): Promise<{ url: string }> {
  const gb = validateStorageGb(input.storageGb);
  const { tier } = await getAccountQuota(db, input.account.teamId);
  const customer = await ensureCustomer(db, billing, input.account);
  const metadata = { kind: "storage_addon", team_id: input.account.teamId, storage_gb: String(gb), tier };
  const session = await billing.stripe.checkout.sessions.create({
    mode: "payment",
    customer,
    client_reference_id: input.account.teamId,
    line_items: [
      {
        quantity: gb,
        price_data: {
          currency: "gbp",
          unit_amount: Math.round(PLANS[tier].overagePerGbGbp * 100),
          product_data: { name: "Extra storage (1 GB, until the end of the billing cycle)" },
        },
      },
    ],
    metadata,
    payment_intent_data: { metadata },
    success_url: `${input.appUrl}/billing?storage_success=true`,
    cancel_url: `${input.appUrl}/billing?storage_canceled=true`,
  });
  if (!session.url) throw new DomainError("payment_provider_error", "Stripe did not return a checkout address");
  return { url: session.url };
}
