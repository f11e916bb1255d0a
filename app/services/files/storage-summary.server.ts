import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { categoryLabel } from "~/lib/categories";
import { isStorageLow, percentUsed } from "~/lib/format";
import type { Tier } from "~/lib/plans";
import { getAccountQuota } from "~/services/billing/quota.server";
import type { TeamId } from "~/lib/ids";

export interface StorageSummary {
  tier: Tier;
  usedBytes: number;
  quotaBytes: number;
  remainingBytes: number;
  /** Unclamped, so an account over its quota reads e.g. 104.2%; the bar clamps. */
  percentUsed: number;
  low: boolean;
  fileCount: number;
}

/** The storage manager's overview: the same quota and usage figures uploads are checked against. */
export async function getStorageSummary(db: Db, teamId: TeamId, now: Date = new Date()): Promise<StorageSummary> {
  const [quota, count] = await Promise.all([
    getAccountQuota(db, teamId, now),
    db
      .selectFrom("files")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("team_id", "=", teamId)
      .executeTakeFirstOrThrow(),
  ]);
  const percent = percentUsed(quota.usedBytes, quota.quotaBytes);
  return {
    tier: quota.tier,
    usedBytes: quota.usedBytes,
    quotaBytes: quota.quotaBytes,
    remainingBytes: Math.max(0, quota.quotaBytes - quota.usedBytes),
    percentUsed: percent,
    low: isStorageLow(percent),
    fileCount: Number(count.n),
  };
}

export interface UsageSlice {
  key: string;
  label: string;
  bytes: number;
  files: number;
}

/** What takes the space: the user's files summed by server and by category, largest first. */
export async function getUsageBreakdown(db: Db, teamId: TeamId): Promise<{ byServer: UsageSlice[]; byCategory: UsageSlice[] }> {
  const [servers, categories] = await Promise.all([
    db
      .selectFrom("files")
      .innerJoin("servers", "servers.id", "files.server_id")
      .select(["servers.id", "servers.name", sql<string>`sum(files.size_bytes)`.as("bytes"), sql<string>`count(*)`.as("files")])
      .where("files.team_id", "=", teamId)
      .groupBy(["servers.id", "servers.name"])
      .orderBy(sql`sum(files.size_bytes)`, "desc")
      .execute(),
    db
      .selectFrom("files")
      .select(["category", sql<string>`sum(size_bytes)`.as("bytes"), sql<string>`count(*)`.as("files")])
      .where("team_id", "=", teamId)
      .groupBy("category")
      .orderBy(sql`sum(size_bytes)`, "desc")
      .execute(),
  ]);
  return {
    byServer: servers.map((s) => ({ key: s.id, label: s.name, bytes: Number(s.bytes), files: Number(s.files) })),
    byCategory: categories.map((c) => ({ key: c.category, label: categoryLabel(c.category), bytes: Number(c.bytes), files: Number(c.files) })),
  };
}
