import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { GB, PLANS, isTier, type Tier } from "~/lib/plans";

export interface AccountQuota {
  tier: Tier;
  planGb: number;
  addonGb: number;
  quotaBytes: number;
  usedBytes: number;
}

/** The account's quota: its plan's storage plus unexpired storage add-ons. */
export async function getAccountQuota(db: Db, userId: string, now: Date = new Date()): Promise<AccountQuota> {
  const row = await db
    .selectFrom("users")
    .leftJoin("subscriptions", "subscriptions.user_id", "users.id")
    .leftJoin("account_usage", "account_usage.user_id", "users.id")
    .select((eb) => [
      "subscriptions.tier",
      "account_usage.used_bytes",
      eb
        .selectFrom("storage_addons")
        .select(sql<number>`coalesce(sum(gb), 0)::int`.as("gb"))
        .whereRef("storage_addons.user_id", "=", "users.id")
        .where((w) => w.or([w("expires_at", "is", null), w("expires_at", ">", now)]))
        .as("addon_gb"),
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  const tier = isTier(row?.tier) ? row.tier : "free";
  const planGb = PLANS[tier].storageGb;
  const addonGb = Number(row?.addon_gb ?? 0);
  return { tier, planGb, addonGb, quotaBytes: (planGb + addonGb) * GB, usedBytes: Number(row?.used_bytes ?? 0) };
}

/**
 * SQL for the account's quota in bytes, for use inside a conditional UPDATE so the check and
 * the reservation are one statement (see reserveQuota).
 */
export function quotaBytesSql(userId: string, now: Date) {
  const cases = sql.join(
    Object.values(PLANS).map((p) => sql`WHEN ${sql.lit(p.tier)} THEN ${sql.lit(p.storageGb)}`),
    sql` `,
  );
  return sql<number>`(
    (coalesce((SELECT CASE s.tier ${cases} END FROM subscriptions s WHERE s.user_id = ${userId}::uuid), ${sql.lit(PLANS.free.storageGb)})
     + (SELECT coalesce(sum(a.gb), 0) FROM storage_addons a WHERE a.user_id = ${userId}::uuid AND (a.expires_at IS NULL OR a.expires_at > ${now}::timestamptz))
    )::bigint * ${sql.lit(GB)}::bigint
  )`;
}

/**
 * Reserves `bytes` of the account's quota in one conditional UPDATE; returns false, changing
 * nothing, when it would pass the quota. Run it in the transaction that inserts the file row.
 */
export async function reserveQuota(db: Db, userId: string, bytes: number, now: Date = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("account_usage")
    .set({ used_bytes: sql`used_bytes + ${bytes}::bigint`, updated_at: now })
    .where("user_id", "=", userId)
    .where(sql<boolean>`used_bytes + ${bytes}::bigint <= ${quotaBytesSql(userId, now)}`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseQuota(db: Db, userId: string, bytes: number): Promise<void> {
  await db
    .updateTable("account_usage")
    .set({ used_bytes: sql`greatest(used_bytes - ${bytes}::bigint, 0)`, updated_at: new Date() })
    .where("user_id", "=", userId)
    .execute();
}
