import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { canonicalCategory, categoryLabel } from "~/lib/categories";
import { getAccountQuota } from "~/services/billing/quota.server";
import { windowStartDay } from "~/services/stats/dashboard-stats.server";
import type { DayPoint } from "~/lib/analytics";
import { DAY_MS } from "~/lib/durations";
import type { TeamId } from "~/lib/ids";

export const ANALYTICS_RANGES = [7, 30, 90] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];

export function parseRange(value: string | null): AnalyticsRange {
  const n = Number(value);
  return (ANALYTICS_RANGES as readonly number[]).includes(n) ? (n as AnalyticsRange) : 30;
}

export interface Ranked {
  name: string;
  files: number;
  bytes: number;
}

export interface Analytics {
  range: AnalyticsRange;
  totals: { files: number; bytes: number; monthlyUploads: number; storagePercent: number };
  days: DayPoint[];
  categories: Ranked[];
  players: Ranked[];
  hasData: boolean;
}

const TOP = 8;

/** Stored categories grouped as every screen shows them (`screenshot` with `screenshots`), labelled. */
function rankCategories(rows: { name: string; files: number; bytes: string }[]): Ranked[] {
  const groups = new Map<string, Ranked>();
  for (const row of rows) {
    const key = canonicalCategory(row.name);
    const group = groups.get(key) ?? { name: categoryLabel(key), files: 0, bytes: 0 };
    group.files += Number(row.files);
    group.bytes += Number(row.bytes);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.files - a.files || a.name.localeCompare(b.name)).slice(0, TOP);
}

function dayList(days: number, now: Date): string[] {
  const start = new Date(`${windowStartDay(days, now)}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => new Date(start.getTime() + i * DAY_MS).toISOString().slice(0, 10));
}

/**
 * Traffic comes from the usage_daily counters (they outlive deleted files); what is stored,
 * by category and by player, comes from the files themselves.
 */
export async function getAnalytics(db: Db, teamId: TeamId, range: AnalyticsRange, now: Date = new Date()): Promise<Analytics> {
  const startDay = windowStartDay(range, now);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const ownFiles = db.selectFrom("files").where("files.team_id", "=", teamId);
  const [totals, monthly, usage, storedBefore, storedByDay, categories, players, anyUsage, quota] = await Promise.all([
    ownFiles.select([sql<number>`count(*)::int`.as("n"), sql<string>`coalesce(sum(size_bytes), 0)`.as("bytes")]).executeTakeFirst(),
    ownFiles.select(sql<number>`count(*)::int`.as("n")).where("created_at", ">=", monthStart).executeTakeFirst(),
    db
      .selectFrom("usage_daily")
      .innerJoin("servers", "servers.id", "usage_daily.server_id")
      .select([
        sql<string>`to_char(usage_daily.day, 'YYYY-MM-DD')`.as("day"),
        sql<string>`sum(usage_daily.uploads)`.as("uploads"),
        sql<string>`sum(usage_daily.upload_bytes)`.as("upload_bytes"),
        sql<string>`sum(usage_daily.downloads)`.as("downloads"),
        sql<string>`sum(usage_daily.download_bytes)`.as("download_bytes"),
        sql<string>`sum(usage_daily.api_calls)`.as("api_calls"),
      ])
      .where("servers.team_id", "=", teamId)
      .where("usage_daily.day", ">=", startDay)
      .groupBy("usage_daily.day")
      .execute(),
    ownFiles
      .select(sql<string>`coalesce(sum(size_bytes), 0)`.as("bytes"))
      .where("created_at", "<", new Date(`${startDay}T00:00:00Z`))
      .executeTakeFirst(),
    ownFiles
      .select([sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`.as("day"), sql<string>`sum(size_bytes)`.as("bytes")])
      .where("created_at", ">=", new Date(`${startDay}T00:00:00Z`))
      .groupBy(sql`1`)
      .execute(),
    ownFiles
      .select(["category as name", sql<number>`count(*)::int`.as("files"), sql<string>`sum(size_bytes)`.as("bytes")])
      .groupBy("category")
      .execute(),
    ownFiles
      .select(["player_name as name", sql<number>`count(*)::int`.as("files"), sql<string>`sum(size_bytes)`.as("bytes")])
      .where("player_name", "is not", null)
      .where("player_name", "<>", "")
      .groupBy("player_name")
      .orderBy(sql`count(*)`, "desc")
      .limit(TOP)
      .execute(),
    db
      .selectFrom("usage_daily")
      .innerJoin("servers", "servers.id", "usage_daily.server_id")
      .select("usage_daily.server_id")
      .where("servers.team_id", "=", teamId)
      .limit(1)
      .executeTakeFirst(),
    getAccountQuota(db, teamId, now),
  ]);

  const usageByDay = new Map(usage.map((u) => [u.day, u]));
  const storedAdded = new Map(storedByDay.map((s) => [s.day, Number(s.bytes)]));
  let stored = Number(storedBefore?.bytes ?? 0);
  const days = dayList(range, now).map((day): DayPoint => {
    const u = usageByDay.get(day);
    stored += storedAdded.get(day) ?? 0;
    return {
      day,
      uploads: Number(u?.uploads ?? 0),
      uploadBytes: Number(u?.upload_bytes ?? 0),
      downloads: Number(u?.downloads ?? 0),
      downloadBytes: Number(u?.download_bytes ?? 0),
      apiCalls: Number(u?.api_calls ?? 0),
      storedBytes: stored,
    };
  });
  const fileCount = Number(totals?.n ?? 0);
  const bytes = Number(totals?.bytes ?? 0);
  const rank = (rows: { name: string | null; files: number; bytes: string }[]): Ranked[] =>
    rows.map((r) => ({ name: r.name ?? "", files: Number(r.files), bytes: Number(r.bytes) }));
  return {
    range,
    totals: {
      files: fileCount,
      bytes,
      monthlyUploads: Number(monthly?.n ?? 0),
      storagePercent: quota.quotaBytes > 0 ? Math.round((bytes / quota.quotaBytes) * 1000) / 10 : 0,
    },
    days,
    categories: rankCategories(categories),
    players: rank(players),
    hasData: fileCount > 0 || anyUsage !== undefined,
  };
}
