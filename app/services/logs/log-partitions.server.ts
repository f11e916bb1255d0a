import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { DAY_MS } from "~/lib/durations";

/** `log_entries_20261126`: one partition per UTC day. */
export function partitionName(day: Date): string {
  return `log_entries_${day.toISOString().slice(0, 10).replaceAll("-", "")}`;
}

function startOfDay(time: Date): Date {
  return new Date(Math.floor(time.getTime() / DAY_MS) * DAY_MS);
}

/** Days already made, per database, so the ingest path asks the catalogue once per day at most. */
const madeIn = new WeakMap<Db, Set<string>>();

function madeSet(db: Db): Set<string> {
  let made = madeIn.get(db);
  if (!made) madeIn.set(db, (made = new Set()));
  return made;
}

/**
 * Makes the day partitions that entries stamped between `from` and `to` need (idempotent, safe with
 * several instances: a concurrent creator's "already exists" is fine).
 */
export async function ensureLogPartitions(db: Db, from: Date, to: Date): Promise<void> {
  const made = madeSet(db);
  for (let day = startOfDay(from); day.getTime() <= to.getTime(); day = new Date(day.getTime() + DAY_MS)) {
    const name = partitionName(day);
    if (made.has(name)) continue;
    const next = new Date(day.getTime() + DAY_MS);
    try {
      await sql`CREATE TABLE IF NOT EXISTS ${sql.table(name)} PARTITION OF log_entries FOR VALUES FROM (${sql.lit(day.toISOString())}) TO (${sql.lit(next.toISOString())})`.execute(db);
    } catch (error) {
      const code = (error as { code?: string }).code;
      // Another instance made it between our check and our create.
      if (code !== "42P07" && code !== "23505") throw error;
    }
    made.add(name);
  }
}

/** The day partitions that exist, oldest first. */
export async function listLogPartitions(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
    WHERE p.relname = 'log_entries' ORDER BY c.relname`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * Retention: drops every whole day partition older than the longest any dataset keeps, then deletes
 * the rows of datasets that keep less from the partitions still there. Returns the partitions dropped.
 */
export async function purgeLogEntries(db: Db, now: Date = new Date()): Promise<{ dropped: string[]; deleted: number }> {
  const longest = await db.selectFrom("log_datasets").select((eb) => eb.fn.max("retention_days").as("days")).executeTakeFirst();
  const keepDays = Number(longest?.days ?? 0);
  const cutoff = partitionName(new Date(startOfDay(now).getTime() - keepDays * DAY_MS));
  const dropped: string[] = [];
  for (const name of await listLogPartitions(db)) {
    // Names sort by day; every partition before the cutoff day is past every dataset's retention.
    if (name >= cutoff) break;
    await sql`DROP TABLE IF EXISTS ${sql.table(name)}`.execute(db);
    madeSet(db).delete(name);
    dropped.push(name);
  }
  const result = await sql`
    DELETE FROM log_entries e USING log_datasets d
    WHERE e.dataset_id = d.id AND e.ts < ${now}::timestamptz - make_interval(days => d.retention_days)`.execute(db);
  return { dropped, deleted: Number(result.numAffectedRows ?? 0) };
}
