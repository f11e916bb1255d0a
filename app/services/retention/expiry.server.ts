import { sql, type Expression, type SqlBool } from "kysely";
import type { Db } from "../../../db/index";
import { expiryLabel, isExpiringSoon } from "~/lib/file-expiry";
import { isTier, PLANS } from "~/lib/plans";
import { isLiveStatus } from "~/services/billing/subscriptions.server";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface FileExpiryInput {
  userId: string;
  serverId: string;
  category: string;
  now?: Date;
}

/**
 * When a file uploaded now expires: the sooner of the plan's retention (30 days on the free
 * plan, never on paid plans) and the server's retention rule for the category. Null keeps it.
 * The upload path stores this in files.expires_at.
 */
export async function computeFileExpiry(db: Db, input: FileExpiryInput): Promise<Date | null> {
  const now = input.now ?? new Date();
  const [subscription, rule] = await Promise.all([
    db.selectFrom("subscriptions").select(["tier", "status"]).where("user_id", "=", input.userId).executeTakeFirst(),
    db
      .selectFrom("retention_rules")
      .select("days")
      .where("server_id", "=", input.serverId)
      .where("category", "=", input.category)
      .executeTakeFirst(),
  ]);
  const tier = isTier(subscription?.tier) && isLiveStatus(subscription.status) ? subscription.tier : "free";
  const candidates = [PLANS[tier].retentionDays, rule?.days].filter((d): d is number => typeof d === "number" && d > 0);
  if (candidates.length === 0) return null;
  return new Date(now.getTime() + Math.min(...candidates) * DAY_MS);
}

/**
 * A file's effective expiry in SQL, for a query over `files as f`: its stored expiry or its
 * server's current rule for the category, whichever is sooner, so a rule added after upload
 * applies too. Needs `retention_rules as r` LEFT JOINed on server and category.
 */
export const effectiveExpirySql = sql<Date | null>`least(f.expires_at, f.created_at + r.days * interval '1 day')`;

/** Condition for `files as f` (with `retention_rules as r` LEFT JOINed) being due at `now`. */
export function isDueSql(now: Date): Expression<SqlBool> {
  return sql<SqlBool>`(f.expires_at <= ${now}::timestamptz OR f.created_at + r.days * interval '1 day' <= ${now}::timestamptz)`;
}

/** Effective expiry of each given file id (files without one are absent), for the gallery. */
export async function fileExpiries(db: Db, fileIds: string[]): Promise<Map<string, Date>> {
  if (fileIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("files as f")
    .leftJoin("retention_rules as r", (j) => j.onRef("r.server_id", "=", "f.server_id").onRef("r.category", "=", "f.category"))
    .select(["f.id", effectiveExpirySql.as("expires_at")])
    .where("f.id", "in", fileIds)
    .execute();
  return new Map(rows.filter((r) => r.expires_at).map((r) => [r.id, new Date(r.expires_at!)]));
}

/** The gallery's flag: an "Expires in N days" label for each given file that expires within 3 days. */
export async function expiryFlags(db: Db, fileIds: string[], now: Date = new Date()): Promise<Map<string, string>> {
  const flags = new Map<string, string>();
  for (const [id, at] of await fileExpiries(db, fileIds)) {
    if (isExpiringSoon(at, now)) flags.set(id, expiryLabel(at, now));
  }
  return flags;
}
