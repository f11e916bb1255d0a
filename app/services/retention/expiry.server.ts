import { sql, type Expression, type SqlBool } from "kysely";
import type { Db } from "../../../db/index";
import { expiryLabel, isExpiringSoon } from "~/lib/file-expiry";
import { PLANS } from "~/lib/plans";
import { isLiveStatus } from "~/services/billing/subscriptions.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { isUuid } from "~/services/platform/ids.server";
import type { FileId, TeamId } from "~/lib/ids";

const LIVE_STATUSES_SQL = sql.join(["active", "trialing", "past_due"].filter(isLiveStatus).map((status) => sql.lit(status)));

/**
 * The plan's own retention in days for the user's live plan (30 on free), or null when it keeps
 * files, as a SQL expression: the upload statement reads it in the same statement that inserts the
 * rows (uploads/upload-commit.server.ts), and planRetentionDays selects it.
 */
export function planRetentionDaysSql(teamId: TeamId) {
  const byTier = sql.join(
    Object.values(PLANS).map((plan) => sql`WHEN ${sql.lit(plan.tier)} THEN ${plan.retentionDays === null ? sql`NULL::int` : sql`${sql.lit(plan.retentionDays)}::int`}`),
    sql` `,
  );
  const free = sql`${sql.lit(PLANS.free.retentionDays)}::int`;
  return sql<number | null>`(SELECT CASE WHEN s.status IN (${LIVE_STATUSES_SQL}) THEN CASE s.tier ${byTier} ELSE ${free} END ELSE ${free} END
    FROM (SELECT 1) AS one LEFT JOIN subscriptions s ON s.team_id = ${teamId}::uuid)`;
}

/** The plan's own retention in days for the user's live plan (30 on free), or null when it keeps files. */
export async function planRetentionDays(db: Db, teamId: TeamId): Promise<number | null> {
  const { rows } = await sql<{ days: number | null }>`SELECT ${planRetentionDaysSql(teamId)} AS days`.execute(db);
  return rows[0]?.days ?? null;
}

/**
 * When a file uploaded at `now` expires, as SQL over the plan's days and the server's rule for the
 * category: the sooner of the two, the rule skipped for a file kept forever; NULL keeps it.
 * `keepForever` must already be false where the plan does not keep files.
 */
export function fileExpirySql(planDays: Expression<number | null>, ruleDays: Expression<number | null>, keepForever: Expression<boolean>, now: Date) {
  return sql<Date | null>`least(
    ${now}::timestamptz + ${planDays} * interval '1 day',
    CASE WHEN ${keepForever} THEN NULL ELSE ${now}::timestamptz + ${ruleDays} * interval '1 day' END
  )`;
}

/**
 * Keep a file forever, or let the server's retention rules apply again. Only where the plan keeps
 * files (paid plans): a free plan's 30 days are its limit, so it is refused there.
 */
export async function setKeepForever(db: Db, teamId: TeamId, fileId: FileId, keep: boolean): Promise<boolean> {
  if (!isUuid(fileId)) return false;
  if (keep && (await planRetentionDays(db, teamId)) !== null) {
    throw new DomainError("plan_unavailable", "Keeping files forever needs a paid plan: on the free plan files are kept 30 days.");
  }
  const row = await db
    .updateTable("files")
    .set(keep ? { retention_exempt: true, expires_at: null } : { retention_exempt: false })
    .where("id", "=", fileId)
    .where("team_id", "=", teamId)
    .returning("id")
    .executeTakeFirst();
  return Boolean(row);
}

/** True for `files as f` while it belongs to an open evidence case: kept whatever the retention rules say. */
const inOpenCaseSql = sql<SqlBool>`EXISTS (SELECT 1 FROM case_files cf JOIN cases c ON c.id = cf.case_id WHERE cf.file_id = f.id AND c.status = 'open')`;

/**
 * A file's effective expiry in SQL, for a query over `files as f`: its stored expiry or its
 * server's current rule for the category, whichever is sooner, so a rule added after upload
 * applies too. Needs `retention_rules as r` LEFT JOINed on server and category.
 */
export const effectiveExpirySql = sql<Date | null>`CASE WHEN ${inOpenCaseSql} THEN NULL ELSE least(f.expires_at, CASE WHEN f.retention_exempt THEN NULL ELSE f.created_at + r.days * interval '1 day' END) END`;

/** Condition for `files as f` (with `retention_rules as r` LEFT JOINed) being due at `now`; a file in an open case never is. */
export function isDueSql(now: Date): Expression<SqlBool> {
  return sql<SqlBool>`((f.expires_at <= ${now}::timestamptz OR (NOT f.retention_exempt AND f.created_at + r.days * interval '1 day' <= ${now}::timestamptz)) AND NOT ${inOpenCaseSql})`;
}

/** Effective expiry of each given file id (files without one are absent), for the gallery. */
export async function fileExpiries(db: Db, fileIds: FileId[]): Promise<Map<string, Date>> {
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
export async function expiryFlags(db: Db, fileIds: FileId[], now: Date = new Date()): Promise<Map<string, string>> {
  const flags = new Map<string, string>();
  for (const [id, at] of await fileExpiries(db, fileIds)) {
    if (isExpiringSoon(at, now)) flags.set(id, expiryLabel(at, now));
  }
  return flags;
}
