import { sql, type Expression, type SqlBool } from "kysely";
import type { Db } from "../../../db/index";
import { expiryLabel, isExpiringSoon } from "~/lib/file-expiry";
import { isTier, PLANS } from "~/lib/plans";
import { isLiveStatus } from "~/services/billing/subscriptions.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { isUuid } from "~/services/platform/ids.server";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface FileExpiryInput {
  userId: string;
  serverId: string;
  category: string;
  /** The uploader asked to keep the file forever (`retention_exempt`); honoured where the plan keeps files. */
  keepForever?: boolean;
  now?: Date;
}

/** The plan's own retention in days for the user's live plan (30 on free), or null when it keeps files. */
export async function planRetentionDays(db: Db, userId: string): Promise<number | null> {
  const subscription = await db.selectFrom("subscriptions").select(["tier", "status"]).where("user_id", "=", userId).executeTakeFirst();
  const tier = isTier(subscription?.tier) && isLiveStatus(subscription.status) ? subscription.tier : "free";
  return PLANS[tier].retentionDays;
}

/**
 * When a file uploaded now expires: the sooner of the plan's retention (30 days on the free
 * plan, never on paid plans) and the server's retention rule for the category, which a file kept
 * forever skips (paid plans only). Null keeps it. The upload path stores this in files.expires_at.
 */
export async function computeFileExpiry(db: Db, input: FileExpiryInput): Promise<{ expiresAt: Date | null; keepForever: boolean; paidPlan: boolean }> {
  const now = input.now ?? new Date();
  const [planDays, rule] = await Promise.all([
    planRetentionDays(db, input.userId),
    db
      .selectFrom("retention_rules")
      .select("days")
      .where("server_id", "=", input.serverId)
      .where("category", "=", input.category)
      .executeTakeFirst(),
  ]);
  const keepForever = Boolean(input.keepForever) && planDays === null;
  const candidates = [planDays, keepForever ? null : rule?.days].filter((d): d is number => typeof d === "number" && d > 0);
  const paidPlan = planDays === null;
  if (candidates.length === 0) return { expiresAt: null, keepForever, paidPlan };
  return { expiresAt: new Date(now.getTime() + Math.min(...candidates) * DAY_MS), keepForever, paidPlan };
}

/**
 * Keep a file forever, or let the server's retention rules apply again. Only where the plan keeps
 * files (paid plans): a free plan's 30 days are its limit, so it is refused there.
 */
export async function setKeepForever(db: Db, userId: string, fileId: string, keep: boolean): Promise<boolean> {
  if (!isUuid(fileId)) return false;
  if (keep && (await planRetentionDays(db, userId)) !== null) {
    throw new DomainError("plan_unavailable", "Keeping files forever needs a paid plan: on the free plan files are kept 30 days.");
  }
  const row = await db
    .updateTable("files")
    .set(keep ? { retention_exempt: true, expires_at: null } : { retention_exempt: false })
    .where("id", "=", fileId)
    .where("user_id", "=", userId)
    .returning("id")
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * A file's effective expiry in SQL, for a query over `files as f`: its stored expiry or its
 * server's current rule for the category, whichever is sooner, so a rule added after upload
 * applies too. Needs `retention_rules as r` LEFT JOINed on server and category.
 */
export const effectiveExpirySql = sql<Date | null>`least(f.expires_at, CASE WHEN f.retention_exempt THEN NULL ELSE f.created_at + r.days * interval '1 day' END)`;

/** Condition for `files as f` (with `retention_rules as r` LEFT JOINed) being due at `now`. */
export function isDueSql(now: Date): Expression<SqlBool> {
  return sql<SqlBool>`(f.expires_at <= ${now}::timestamptz OR (NOT f.retention_exempt AND f.created_at + r.days * interval '1 day' <= ${now}::timestamptz))`;
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
