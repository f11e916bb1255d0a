import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { ServerId, TeamId } from "~/lib/ids";

type Counter = "uploads" | "upload_bytes" | "downloads" | "download_bytes" | "api_calls" | "log_entries";

/** The UTC calendar day the dashboard groups usage by. */
export function usageDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Adds to a server's counters for today in one upsert; safe under concurrency. */
export async function bumpUsage(db: Db, serverId: ServerId, counts: Partial<Record<Counter, number>>, now: Date = new Date()): Promise<void> {
  const entries = Object.entries(counts).filter(([, n]) => n) as [Counter, number][];
  if (entries.length === 0) return;
  await db
    .insertInto("usage_daily")
    .values({ server_id: serverId, day: usageDay(now), ...Object.fromEntries(entries) })
    .onConflict((oc) =>
      oc.columns(["server_id", "day"]).doUpdateSet(Object.fromEntries(entries.map(([column, n]) => [column, sql`usage_daily.${sql.ref(column)} + ${n}`]))),
    )
    .execute();
}

/** For the file-serving paths: one download of `bytes` bytes. */
export function recordDownload(db: Db, serverId: ServerId, bytes: number): Promise<void> {
  return bumpUsage(db, serverId, { downloads: 1, download_bytes: bytes });
}

export interface ApiCallRecord {
  action: string;
  /** False for calls too frequent for the audit trail (log ingest); still counted and touching the key. */
  audited?: boolean;
  ip: string;
  status: number;
  /** What the call acted on, as the portal's entries name it (a file as `name (id)`, a case as `Case XT-0020`). */
  target?: string | null;
  detail?: Record<string, unknown>;
}

/** Each of a team's keys' calls since `since` (whole UTC days), from the per-key daily counters (keys without calls are absent). */
export async function countCallsByKey(db: Db, teamId: TeamId, since: Date): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("api_key_usage_daily as u")
    .innerJoin("api_keys as k", "k.id", "u.api_key_id")
    .select(["u.api_key_id", (eb) => eb.fn.sum<string | number>("u.calls").as("calls")])
    .where("k.team_id", "=", teamId)
    .where("u.day", ">=", usageDay(since))
    .groupBy("u.api_key_id")
    .execute();
  return new Map(rows.map((row) => [row.api_key_id, Number(row.calls)]));
}
