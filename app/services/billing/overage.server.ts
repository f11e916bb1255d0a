import type { Db } from "../../../db/index";
import { getAccountQuota } from "~/services/billing/quota.server";
import type { TeamId } from "~/lib/ids";

export interface StorageOverage {
  usedBytes: number;
  quotaBytes: number;
  overBytes: number;
}

/**
 * The account's overage after a downgrade, a lapsed subscription or an expired add-on; null
 * while usage fits. Uploads are already refused by reserveQuota; this is for telling the owner.
 */
export async function getStorageOverage(db: Db, teamId: TeamId, now: Date = new Date()): Promise<StorageOverage | null> {
  const quota = await getAccountQuota(db, teamId, now);
  if (quota.usedBytes <= quota.quotaBytes) return null;
  return { usedBytes: quota.usedBytes, quotaBytes: quota.quotaBytes, overBytes: quota.usedBytes - quota.quotaBytes };
}
