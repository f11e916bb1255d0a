import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { formatCount } from "~/lib/format";
import { PLANS, type Tier } from "~/lib/plans";
import { DomainError } from "~/services/platform/domain-error.server";
import { bumpUsage } from "~/services/api-keys/key-usage.server";
import { findOrCreateDataset, parseDatasetName } from "~/services/logs/log-datasets.server";
import { ensureLogPartitions } from "~/services/logs/log-partitions.server";
import { forwardsOfDatasets, queueForwards } from "~/services/logs/log-forwards.server";
import type { LogInput } from "~/services/logs/log-parsing.server";

export interface LogTarget {
  serverId: string;
  teamId: string;
  tier: Tier;
}

/** Where a server's logs go and under which plan (for senders that hold no key, like a webhook URL). */
export async function logTargetOfServer(db: Db, serverId: string): Promise<LogTarget> {
  const row = await db
    .selectFrom("servers as s")
    .leftJoin("subscriptions as sub", "sub.team_id", "s.team_id")
    .select(["s.id", "s.team_id", "sub.tier"])
    .where("s.id", "=", serverId)
    .executeTakeFirstOrThrow();
  return { serverId: row.id, teamId: row.team_id, tier: row.tier ?? "free" };
}

/** Entries the team sent this calendar month (UTC), from the daily counters. */
export async function logEntriesThisMonth(db: Db, teamId: string, now: Date = new Date()): Promise<number> {
  const monthStart = `${now.toISOString().slice(0, 7)}-01`;
  const row = await db
    .selectFrom("usage_daily as u")
    .innerJoin("servers as s", "s.id", "u.server_id")
    .select(sql<string>`coalesce(sum(u.log_entries), 0)`.as("n"))
    .where("s.team_id", "=", teamId)
    .where("u.day", ">=", monthStart)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Stores a request's entries: the plan's monthly volume first (429 past it, nothing stored), then
 * each entry's dataset (`dataset` of the entry, else the request's), the day partitions they need, and
 * one multi-row insert with today's counter and the forwards' outbox rows in the same transaction, so an
 * acknowledged entry is stored, counted and on its way to Discord, and a refused request leaves nothing.
 */
export async function ingestLogs(db: Db, target: LogTarget, entries: LogInput[], requestDataset: string, now: Date = new Date()): Promise<{ accepted: number; datasets: string[] }> {
  const plan = PLANS[target.tier];
  const used = await logEntriesThisMonth(db, target.teamId, now);
  if (used + entries.length > plan.logEntriesPerMonth) {
    throw new DomainError(
      "rate_limited",
      `This team has sent ${formatCount(used, "log entry", "log entries")} this month; the ${plan.name} plan takes ${plan.logEntriesPerMonth.toLocaleString("en-GB")}. Upgrade or wait for the 1st.`,
    );
  }
  const names = new Map<string, string>();
  for (const entry of entries) names.set(entry.dataset ?? requestDataset, parseDatasetName(entry.dataset ?? requestDataset));
  const datasetIds = new Map<string, string>();
  for (const name of new Set(names.values())) datasetIds.set(name, (await findOrCreateDataset(db, target.serverId, name, target.tier)).id);
  const times = entries.map((e) => e.ts.getTime());
  await ensureLogPartitions(db, new Date(Math.min(...times)), new Date(Math.max(...times)));
  const forwards = await forwardsOfDatasets(db, [...datasetIds.values()]);
  const datasetOf = (entry: LogInput) => names.get(entry.dataset ?? requestDataset)!;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("log_entries")
      .values(
        entries.map((entry) => ({
          ts: entry.ts,
          dataset_id: datasetIds.get(datasetOf(entry))!,
          level: entry.level,
          resource: entry.resource,
          message: entry.message,
          metadata: JSON.stringify(entry.metadata),
        })),
      )
      .execute();
    await bumpUsage(trx, target.serverId, { log_entries: entries.length }, now);
    if (forwards.length) await queueForwards(trx, forwards, entries.map((entry) => ({ datasetId: datasetIds.get(datasetOf(entry))!, dataset: datasetOf(entry), entry })));
  });
  return { accepted: entries.length, datasets: [...datasetIds.keys()] };
}
