import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { GB } from "~/lib/plans";
import { getAccountQuota } from "~/services/billing/quota.server";
import type { TeamId } from "~/lib/ids";

export const API_CALL_WINDOW_DAYS = 30;
export const DASHBOARD_SERVER_COUNT = 3;

export interface DashboardStats {
  totalServers: number;
  apiKeys: number;
  mediaFiles: number;
  storageUsedBytes: number;
  quotaGb: number;
  apiCalls30d: number;
}

/** The first UTC day (YYYY-MM-DD) of a window of `days` days ending today. */
export function windowStartDay(days: number, now: Date = new Date()): string {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  return start.toISOString().slice(0, 10);
}

export async function getDashboardStats(db: Db, teamId: TeamId, now: Date = new Date()): Promise<DashboardStats> {
  const [servers, keys, files, calls, quota] = await Promise.all([
    db.selectFrom("servers").select(sql<number>`count(*)::int`.as("n")).where("team_id", "=", teamId).executeTakeFirst(),
    db.selectFrom("api_keys").select(sql<number>`count(*)::int`.as("n")).where("team_id", "=", teamId).executeTakeFirst(),
    db
      .selectFrom("files")
      .select([sql<number>`count(*)::int`.as("n"), sql<string>`coalesce(sum(size_bytes), 0)`.as("bytes")])
      .where("team_id", "=", teamId)
      .executeTakeFirst(),
    // usage_daily holds one counter row per server and day, written by every key-authenticated call.
    db
      .selectFrom("usage_daily")
      .innerJoin("servers", "servers.id", "usage_daily.server_id")
      .select(sql<string>`coalesce(sum(usage_daily.api_calls), 0)`.as("n"))
      .where("servers.team_id", "=", teamId)
      .where("usage_daily.day", ">=", windowStartDay(API_CALL_WINDOW_DAYS, now))
      .executeTakeFirst(),
    getAccountQuota(db, teamId, now),
  ]);
  return {
    totalServers: Number(servers?.n ?? 0),
    apiKeys: Number(keys?.n ?? 0),
    mediaFiles: Number(files?.n ?? 0),
    storageUsedBytes: Number(files?.bytes ?? 0),
    quotaGb: quota.quotaBytes / GB,
    apiCalls30d: Number(calls?.n ?? 0),
  };
}
