import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { formatCount } from "~/lib/format";
import { PLANS, type Tier } from "~/lib/plans";
import { DomainError } from "~/services/platform/domain-error.server";
import { usageDay } from "~/services/api-keys/key-usage.server";
import { datasetIdFor, parseDatasetName } from "~/services/logs/log-datasets.server";
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

function volumeRefusal(plan: (typeof PLANS)[Tier], used: number): DomainError {
  return new DomainError(
    "rate_limited",
    `This team has sent ${formatCount(used, "log entry", "log entries")} this month; the ${plan.name} plan takes ${plan.logEntriesPerMonth.toLocaleString("en-GB")}. Upgrade or wait for the 1st.`,
  );
}

/**
 * The insert, the monthly volume check and today's counter as one statement: the rows go in only
 * if the team's month so far plus these fits the plan, and the counter moves only if they went in.
 * Answers what the month held before, and how many rows went in (0: refused for volume).
 */
async function insertWithinVolume(db: Db, target: LogTarget, rows: Array<{ entry: LogInput; datasetId: string }>, now: Date): Promise<{ used: number; inserted: number }> {
  const limit = PLANS[target.tier].logEntriesPerMonth;
  // Six array parameters unnested, rather than six parameters per row: far less to compile and parse.
  const column = <T,>(pick: (row: { entry: LogInput; datasetId: string }) => T) => rows.map(pick);
  const { rows: answer } = await sql<{ used: string; inserted: string }>`
    WITH used AS (
      SELECT coalesce(sum(u.log_entries), 0) AS n FROM usage_daily u JOIN servers s ON s.id = u.server_id
      WHERE s.team_id = ${target.teamId}::uuid AND u.day >= ${`${now.toISOString().slice(0, 7)}-01`}
    ), ins AS (
      INSERT INTO log_entries (ts, dataset_id, level, resource, message, metadata)
      SELECT v.ts, v.dataset_id, v.level, v.resource, v.message, v.metadata
      FROM unnest(
        ${column((r) => r.entry.ts.toISOString())}::timestamptz[], ${column((r) => r.datasetId)}::uuid[], ${column((r) => r.entry.level)}::text[],
        ${column((r) => r.entry.resource)}::text[], ${column((r) => r.entry.message)}::text[], ${column((r) => JSON.stringify(r.entry.metadata))}::jsonb[]
      ) AS v (ts, dataset_id, level, resource, message, metadata), used
      WHERE used.n + ${rows.length} <= ${limit}
      RETURNING 1
    ), bump AS (
      INSERT INTO usage_daily (server_id, day, log_entries)
      SELECT ${target.serverId}, ${usageDay(now)}, ${rows.length} WHERE EXISTS (SELECT 1 FROM ins)
      ON CONFLICT (server_id, day) DO UPDATE SET log_entries = usage_daily.log_entries + EXCLUDED.log_entries
      RETURNING 1
    )
    SELECT (SELECT n FROM used) AS used, (SELECT count(*) FROM ins) AS inserted, (SELECT count(*) FROM bump) AS bumped`.execute(db);
  return { used: Number(answer[0]?.used ?? 0), inserted: Number(answer[0]?.inserted ?? 0) };
}

/**
 * Stores a request's entries under their datasets (`dataset` of the entry, else the request's): the
 * day partitions they need, then one statement that inserts them, checks the plan's monthly volume
 * (429 past it, nothing stored) and moves today's counter — with the forwards' outbox rows in the
 * same transaction when a dataset has forwards — so an acknowledged entry is stored, counted and on
 * its way to Discord, and a refused request leaves nothing. Two round trips for a request whose key
 * is known: the key's lookup and this statement.
 */
export async function ingestLogs(db: Db, target: LogTarget, entries: LogInput[], requestDataset: string, now: Date = new Date()): Promise<{ accepted: number; datasets: string[] }> {
  const plan = PLANS[target.tier];
  const names = new Map<string, string>();
  for (const entry of entries) names.set(entry.dataset ?? requestDataset, parseDatasetName(entry.dataset ?? requestDataset));
  const datasetIds = new Map<string, string>();
  for (const name of new Set(names.values())) datasetIds.set(name, await datasetIdFor(db, target.serverId, name, target.tier));
  const times = entries.map((e) => e.ts.getTime());
  await ensureLogPartitions(db, new Date(Math.min(...times)), new Date(Math.max(...times)));
  const datasetOf = (entry: LogInput) => names.get(entry.dataset ?? requestDataset)!;
  const rows = entries.map((entry) => ({ entry, datasetId: datasetIds.get(datasetOf(entry))!, dataset: datasetOf(entry) }));
  const forwards = await forwardsOfDatasets(db, [...datasetIds.values()]);
  const result = forwards.length
    ? await db.transaction().execute(async (trx) => {
        const inserted = await insertWithinVolume(trx, target, rows, now);
        if (inserted.inserted) await queueForwards(trx, forwards, rows);
        return inserted;
      })
    : await insertWithinVolume(db, target, rows, now);
  if (result.inserted === 0) throw volumeRefusal(plan, result.used);
  return { accepted: entries.length, datasets: [...datasetIds.keys()] };
}
