import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { Tier } from "~/lib/plans";
import { datasetIdFor, parseDatasetName } from "~/services/logs/log-datasets.server";
import { ensureLogPartitions } from "~/services/logs/log-partitions.server";
import { forwardsOfDatasets, queueForwards } from "~/services/logs/log-forwards.server";
import type { LogInput } from "~/services/logs/log-parsing.server";
import type { LogVolume } from "~/services/logs/log-volume.server";
import type { ServerId, TeamId } from "~/lib/ids";

export interface LogTarget {
  serverId: ServerId;
  teamId: TeamId;
  tier: Tier;
}

/** Where a server's logs go and under which plan (for senders that hold no key, like a webhook URL). */
export async function logTargetOfServer(db: Db, serverId: ServerId): Promise<LogTarget> {
  const row = await db
    .selectFrom("servers as s")
    .leftJoin("subscriptions as sub", "sub.team_id", "s.team_id")
    .select(["s.id", "s.team_id", "sub.tier"])
    .where("s.id", "=", serverId)
    .executeTakeFirstOrThrow();
  return { serverId: row.id, teamId: row.team_id, tier: row.tier ?? "free" };
}

/**
 * The entries as rows of one JSON parameter, parsed once in PostgreSQL: six text arrays (or six
 * parameters a row) cost pg's per-element escaping, the most expensive part of the request in Node.
 */
async function insertEntries(db: Db, rows: Array<{ entry: LogInput; datasetId: string }>): Promise<void> {
  // Written field by field: JSON.stringify of the row objects spends most of its time in Date#toJSON,
  // and a request's entries mostly share one timestamp.
  const times = new Map<number, string>();
  const iso = (ts: Date) => times.get(ts.getTime()) ?? times.set(ts.getTime(), ts.toISOString()).get(ts.getTime())!;
  const json = `[${rows
    .map(({ entry, datasetId }) => `{"ts":"${iso(entry.ts)}","dataset_id":"${datasetId}","level":"${entry.level}","resource":${JSON.stringify(entry.resource)},"message":${JSON.stringify(entry.message)},"metadata":${JSON.stringify(entry.metadata)}}`)
    .join(",")}]`;
  await sql`
    INSERT INTO log_entries (ts, dataset_id, level, resource, message, metadata)
    SELECT ts, dataset_id, level, resource, message, metadata
    FROM json_to_recordset(${json}::json) AS r (ts timestamptz, dataset_id uuid, level text, resource text, message text, metadata jsonb)`.execute(db);
}

/**
 * Stores a request's entries under their datasets (`dataset` of the entry, else the request's): the
 * plan's monthly volume first (429 past it, and nothing made or stored, not even a new dataset), the
 * day partitions they need, then one insert — with the forwards' outbox rows in the same transaction
 * when a dataset has forwards — so an acknowledged entry is stored and on its way to Discord. The
 * count toward the volume is written within a second (LogVolume). Two round trips for a request
 * whose key is known: the key's lookup and the insert.
 */
export async function ingestLogs(db: Db, volume: LogVolume, target: LogTarget, entries: LogInput[], requestDataset: string, now: Date = new Date()): Promise<{ accepted: number; datasets: string[] }> {
  const names = new Map<string, string>();
  for (const entry of entries) names.set(entry.dataset ?? requestDataset, parseDatasetName(entry.dataset ?? requestDataset));
  await volume.reserve(target, entries.length, now);
  try {
    const datasetIds = new Map<string, string>();
    for (const name of new Set(names.values())) datasetIds.set(name, await datasetIdFor(db, target.serverId, name, target.tier));
    const times = entries.map((e) => e.ts.getTime());
    await ensureLogPartitions(db, new Date(Math.min(...times)), new Date(Math.max(...times)));
    const datasetOf = (entry: LogInput) => names.get(entry.dataset ?? requestDataset)!;
    const rows = entries.map((entry) => ({ entry, datasetId: datasetIds.get(datasetOf(entry))!, dataset: datasetOf(entry) }));
    const forwards = await forwardsOfDatasets(db, [...datasetIds.values()]);
    if (forwards.length) {
      await db.transaction().execute(async (trx) => {
        await insertEntries(trx, rows);
        await queueForwards(trx, forwards, rows);
      });
    } else {
      await insertEntries(db, rows);
    }
    volume.commit(target, entries.length, now);
    return { accepted: entries.length, datasets: [...datasetIds.keys()] };
  } catch (error) {
    volume.release(target.teamId, entries.length);
    throw error;
  }
}
