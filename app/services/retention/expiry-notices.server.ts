import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { EXPIRY_WARNING_DAYS } from "~/lib/plans";
import { formatDate } from "~/lib/format";
import { effectiveExpirySql } from "~/services/retention/expiry.server";
import { DAY_MS } from "~/lib/durations";

const LISTED = 10;

export interface ExpiryNotice {
  to: string;
  subject: string;
  text: string;
}

export interface NoticeOptions {
  now: Date;
  appName: string;
  appUrl: string;
  send(notice: ExpiryNotice): Promise<void>;
}

export function noticeFor(email: string, files: { original_filename: string; expires_at: Date }[], options: NoticeOptions): ExpiryNotice {
  const soonest = files.reduce((a, b) => (a.expires_at < b.expires_at ? a : b)).expires_at;
  const lines = files.slice(0, LISTED).map((f) => `- ${f.original_filename} (deleted after ${formatDate(f.expires_at)})`);
  if (files.length > LISTED) lines.push(`- and ${files.length - LISTED} more`);
  return {
    to: email,
    subject: `${files.length} file${files.length === 1 ? "" : "s"} on ${options.appName} will be deleted soon`,
    text: [
      `${files.length === 1 ? "A file" : `${files.length} files`} in your ${options.appName} account will be deleted by the retention policy, the first on ${formatDate(soonest)}:`,
      "",
      ...lines,
      "",
      `Review them in the gallery: ${options.appUrl}/gallery`,
      `Paid plans keep files forever: ${options.appUrl}/billing`,
    ].join("\n"),
  };
}

/** Due after `now` (a file already due is the sweep's, not a warning's) and by `horizon`. */
function expiresBetween(now: Date, horizon: Date) {
  return sql<boolean>`${effectiveExpirySql} > ${now}::timestamptz AND ${effectiveExpirySql} <= ${horizon}::timestamptz`;
}

/**
 * Sends each owner one e-mail about their files that expire within EXPIRY_WARNING_DAYS and were
 * not mentioned before. Files are marked in the same transaction as the send, so a failed send
 * leaves them for the next run and a sent one is never repeated.
 */
export async function sendExpiryNotices(db: Db, options: NoticeOptions): Promise<number> {
  const horizon = new Date(options.now.getTime() + EXPIRY_WARNING_DAYS * DAY_MS);
  const owners = await db
    .selectFrom("files as f")
    .leftJoin("retention_rules as r", (j) => j.onRef("r.server_id", "=", "f.server_id").onRef("r.category", "=", "f.category"))
    .select("f.team_id")
    .distinct()
    .where("f.expiry_notified_at", "is", null)
    .where(expiresBetween(options.now, horizon))
    .execute();
  let sent = 0;
  for (const { team_id } of owners) {
    const did = await db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom("teams").innerJoin("users", "users.id", "teams.owner_user_id").select("users.email").where("teams.id", "=", team_id).executeTakeFirst();
      const files = await trx
        .selectFrom("files as f")
        .leftJoin("retention_rules as r", (j) => j.onRef("r.server_id", "=", "f.server_id").onRef("r.category", "=", "f.category"))
        .select(["f.id", "f.original_filename", effectiveExpirySql.as("expires_at")])
        .where("f.team_id", "=", team_id)
        .where("f.expiry_notified_at", "is", null)
        .where(expiresBetween(options.now, horizon))
        .orderBy("expires_at")
        .forUpdate("f")
        .skipLocked()
        .execute();
      if (files.length === 0) return false;
      await trx
        .updateTable("files")
        .set({ expiry_notified_at: options.now })
        .where("id", "in", files.map((f) => f.id))
        .execute();
      if (!user?.email) return false;
      await options.send(noticeFor(user.email, files.map((f) => ({ ...f, expires_at: new Date(f.expires_at!) })), options));
      return true;
    });
    if (did) sent += 1;
  }
  return sent;
}
