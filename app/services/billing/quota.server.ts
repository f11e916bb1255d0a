import { sql, type Expression } from "kysely";
import type { Db } from "../../../db/index";
import { GB, PLANS, isTier, type Tier } from "~/lib/plans";
import type { TeamId } from "~/lib/ids";

export interface AccountQuota {
  tier: Tier;
  planGb: number;
  addonGb: number;
  quotaBytes: number;
  usedBytes: number;
}

/** A team's quota: its plan's storage plus unexpired storage add-ons. */
export async function getAccountQuota(db: Db, teamId: TeamId, now: Date = new Date()): Promise<AccountQuota> {
  const row = await db
    .selectFrom("teams")
    .leftJoin("subscriptions", "subscriptions.team_id", "teams.id")
    .leftJoin("account_usage", "account_usage.team_id", "teams.id")
    .select((eb) => [
      "subscriptions.tier",
      "account_usage.used_bytes",
      eb
        .selectFrom("storage_addons")
        .select(sql<number>`coalesce(sum(gb), 0)::int`.as("gb"))
        .whereRef("storage_addons.team_id", "=", "teams.id")
        .where((w) => w.or([w("expires_at", "is", null), w("expires_at", ">", now)]))
        .as("addon_gb"),
    ])
    .where("teams.id", "=", teamId)
    .executeTakeFirst();
  const tier = isTier(row?.tier) ? row.tier : "free";
  const planGb = PLANS[tier].storageGb;
  const addonGb = Number(row?.addon_gb ?? 0);
  return { tier, planGb, addonGb, quotaBytes: (planGb + addonGb) * GB, usedBytes: Number(row?.used_bytes ?? 0) };
}

/**
 * SQL for the account's quota in bytes, for use inside a conditional UPDATE so the check and
 * the reservation are one statement (see reserveQuotaSql). `teamId` is a value or a column.
 */
export function quotaBytesSql(teamId: TeamId | Expression<string>, now: Date) {
  const user = typeof teamId === "string" ? sql`${teamId}::uuid` : teamId;
  const cases = sql.join(
    Object.values(PLANS).map((p) => sql`WHEN ${sql.lit(p.tier)} THEN ${sql.lit(p.storageGb)}`),
    sql` `,
  );
  return sql<number>`(
    (coalesce((SELECT CASE s.tier ${cases} END FROM subscriptions s WHERE s.team_id = ${user}), ${sql.lit(PLANS.free.storageGb)})
     + (SELECT coalesce(sum(a.gb), 0) FROM storage_addons a WHERE a.team_id = ${user} AND (a.expires_at IS NULL OR a.expires_at > ${now}::timestamptz))
    )::bigint * ${sql.lit(GB)}::bigint
  )`;
}

/**
 * The conditional UPDATE that reserves `bytes` of the account's quota, returning one row when it
 * did and none, changing nothing, when it would pass the quota. The upload statement runs it as
 * its first step (uploads/upload-commit.server.ts).
 */
export function reserveQuotaSql(teamId: TeamId, bytes: number, now: Date) {
  return sql`UPDATE account_usage SET used_bytes = used_bytes + ${bytes}::bigint, updated_at = ${now}::timestamptz
    WHERE team_id = ${teamId}::uuid AND used_bytes + ${bytes}::bigint <= ${quotaBytesSql(teamId, now)}
    RETURNING 1`;
}

/** Reserves `bytes` of the account's quota on its own; false, changing nothing, when it would pass the quota. */
export async function reserveQuota(db: Db, teamId: TeamId, bytes: number, now: Date = new Date()): Promise<boolean> {
  const { rows } = await reserveQuotaSql(teamId, bytes, now).execute(db);
  return rows.length === 1;
}

export async function releaseQuota(db: Db, teamId: TeamId, bytes: number): Promise<void> {
  await db
    .updateTable("account_usage")
    .set({ used_bytes: sql`greatest(used_bytes - ${bytes}::bigint, 0)`, updated_at: new Date() })
    .where("team_id", "=", teamId)
    .execute();
}
