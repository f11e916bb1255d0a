/** The plans, one source for pricing pages, billing and every quota check. 1 GB = 1024^3 bytes. */
export const GB = 1024 ** 3;

export const TIERS = ["free", "starter", "professional", "business"] as const;
export type Tier = (typeof TIERS)[number];

export interface Plan {
  tier: Tier;
  name: string;
  priceGbp: number;
  storageGb: number;
  /** Days a file lives after upload; null keeps files forever. */
  retentionDays: number | null;
  /** Days the audit trail (/audit) keeps an entry. */
  auditRetentionDays: number;
  /** Log entries a team may send in a calendar month (UTC); past it, ingest answers 429. */
  logEntriesPerMonth: number;
  /** The longest a log dataset may keep its entries, in days. */
  logRetentionDays: number;
  overagePerGbGbp: number;
  mostPopular: boolean;
  features: string[];
}

const common = ["Unlimited uploads", "API access", "Global CDN delivery"];

export const PLANS: Record<Tier, Plan> = {
  free: {
    tier: "free",
    logEntriesPerMonth: 100_000,
    logRetentionDays: 7,
    auditRetentionDays: 30,
    name: "Street",
    priceGbp: 0,
    storageGb: 5,
    retentionDays: 30,
    overagePerGbGbp: 0.25,
    mostPopular: false,
    features: ["5GB storage", "30-day file retention", ...common, "100k log entries a month, kept 7 days"],
  },
  starter: {
    tier: "starter",
    logEntriesPerMonth: 1_000_000,
    logRetentionDays: 30,
    auditRetentionDays: 90,
    name: "Hood",
    priceGbp: 4.99,
    storageGb: 25,
    retentionDays: null,
    overagePerGbGbp: 0.2,
    mostPopular: false,
    features: ["25GB storage", "Files kept forever", ...common, "1M log entries a month, kept 30 days"],
  },
  professional: {
    tier: "professional",
    logEntriesPerMonth: 10_000_000,
    logRetentionDays: 90,
    auditRetentionDays: 365,
    name: "Kingpin",
    priceGbp: 9.99,
    storageGb: 100,
    retentionDays: null,
    overagePerGbGbp: 0.1,
    mostPopular: true,
    features: ["100GB storage", "Files kept forever", ...common, "10M log entries a month, kept 90 days", "Priority support"],
  },
  business: {
    tier: "business",
    logEntriesPerMonth: 50_000_000,
    logRetentionDays: 180,
    auditRetentionDays: 365,
    name: "Boss",
    priceGbp: 19.99,
    storageGb: 200,
    retentionDays: null,
    overagePerGbGbp: 0.1,
    mostPopular: false,
    features: ["200GB storage", "Files kept forever", ...common, "50M log entries a month, kept 180 days", "Priority support"],
  },
};

export const PLAN_LIST: Plan[] = TIERS.map((tier) => PLANS[tier]);
export const FREE_STORAGE_GB = PLANS.free.storageGb;

/** Storage add-on purchase limits (GB). */
export const ADDON_MIN_GB = 1;
export const ADDON_MAX_GB = 1000;
export const ADDON_DEFAULT_GB = 10;

export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}

/** Every price one way, pence always shown: "£4.99", "£2.50", "£1.00", "£0.00". */
export function formatGbp(amount: number): string {
  return `£${amount.toFixed(2)}`;
}

export const PAID_TIERS = ["starter", "professional", "business"] as const;
export type PaidTier = (typeof PAID_TIERS)[number];

export function isPaidTier(value: unknown): value is PaidTier {
  return typeof value === "string" && (PAID_TIERS as readonly string[]).includes(value);
}

/** Files expiring within this many days are flagged in the gallery and mailed about once. */
export const EXPIRY_WARNING_DAYS = 3;

/** Price of `gb` extra gigabytes on `tier`, in pounds (GB × the tier's overage rate). */
export function storageAddonPriceGbp(tier: Tier, gb: number): number {
  return Math.round(gb * PLANS[tier].overagePerGbGbp * 100) / 100;
}

/**
 * The storage-purchase input as the spec reads it: non-numeric counts as 0, values are capped
 * at ADDON_MAX_GB; anything not above 0 is refused by the caller.
 */
export function parseStorageGb(value: unknown): number {
  const n = typeof value === "number" ? value : Number.parseInt(String(value ?? ""), 10);
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.min(Math.floor(n), ADDON_MAX_GB);
}
