import Stripe from "stripe";
import type { PaidTier } from "~/lib/plans";
import type { Config } from "~/services/platform/env.server";

export type StripeConfig = Pick<
  Config,
  | "STRIPE_SECRET_KEY"
  | "STRIPE_WEBHOOK_SECRET"
  | "STRIPE_PRICE_STARTER"
  | "STRIPE_PRICE_PROFESSIONAL"
  | "STRIPE_PRICE_BUSINESS"
  | "STRIPE_API_BASE"
>;

export interface Billing {
  stripe: Stripe;
  webhookSecret: string;
  /** The configured price id or lookup key of each paid tier. */
  prices: Partial<Record<PaidTier, string>>;
  /** Resolved price ids, filled on first use so a lookup key costs one API call per process. */
  priceIds: Map<PaidTier, string>;
}

const clients = new WeakMap<StripeConfig, Billing>();

/** The Stripe client for this configuration, or null when payments are not configured. */
export function getBilling(config: StripeConfig): Billing | null {
  if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) return null;
  let billing = clients.get(config);
  if (!billing) {
    billing = {
      stripe: createStripeClient(config.STRIPE_SECRET_KEY, config.STRIPE_API_BASE),
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      prices: {
        starter: config.STRIPE_PRICE_STARTER,
        professional: config.STRIPE_PRICE_PROFESSIONAL,
        business: config.STRIPE_PRICE_BUSINESS,
      },
      priceIds: new Map(),
    };
    clients.set(config, billing);
  }
  return billing;
}

/** STRIPE_API_BASE points the real client at another host (a local Stripe-speaking server in tests). */
export function createStripeClient(secretKey: string, apiBase?: string): Stripe {
  const options: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 1, timeout: 20_000, telemetry: false };
  if (apiBase) {
    const url = new URL(apiBase);
    options.host = url.hostname;
    options.protocol = url.protocol === "http:" ? "http" : "https";
    options.port = url.port || (url.protocol === "http:" ? 80 : 443);
  }
  return new Stripe(secretKey, options);
}
