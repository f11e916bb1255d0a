import type { Db } from "../../../db/index";
import { isStorageLow, percentUsed } from "~/lib/format";
import type { Tier } from "~/lib/plans";
import { getAccountQuota } from "~/services/billing/quota.server";

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
export async function getStorageSummary(db: Db, userId: string, now: Date = new Date()): Promise<StorageSummary> {
  const [quota, count] = await Promise.all([
    getAccountQuota(db, userId, now),
    db
      .selectFrom("files")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
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
