import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { ReportStatus } from "../../../db/schema";
import { isValidEmail } from "~/lib/auth-validation";
import { isReportReason, REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason } from "~/lib/report-reasons";
import { sanitizeInput } from "~/lib/sanitize";
import type { AppContext } from "~/services/app-context.server";
import { deleteServerFile } from "~/services/files/delete-files.server";
import { fileUrl } from "~/services/files/file-views.server";
import { invalidateCachedFile } from "~/services/files/lookup.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { parseServerId } from "~/services/platform/ids.server";
import { escapeHtml, sendMail } from "~/services/platform/mail.server";
import type { FileId, ServerId, UserId } from "~/lib/ids";

const FILE_PATH = /\/f\/([A-Za-z0-9_-]{1,64})\/([a-z0-9_-]{1,40})\/([A-Za-z0-9._-]{1,200})$/;

export interface ReportInput {
  url: unknown;
  reason: unknown;
  details?: unknown;
  contact?: unknown;
  ip: string | null;
}

/** Checks a report as typed: the address of a file here, a known reason, optional details and a contact address. */
export function parseReport(input: ReportInput): { path: { serverId: ServerId; category: string; filename: string }; reason: ReportReason; details: string; contact: string | null } {
  const url = typeof input.url === "string" ? input.url.trim() : "";
  if (!url) throw new DomainError("invalid_request", "Paste the address of the file you are reporting", { field: "url" });
  let pathname: string;
  try {
    pathname = new URL(url, "http://placeholder.invalid").pathname;
  } catch {
    pathname = "";
  }
  const match = FILE_PATH.exec(pathname);
  const serverId = parseServerId(match?.[1]);
  if (!match || !serverId) throw new DomainError("invalid_request", "That is not the address of a file hosted here (it should contain /f/)", { field: "url" });
  if (!isReportReason(input.reason)) throw new DomainError("invalid_request", "Choose a reason", { field: "reason" });
  const details = sanitizeInput(typeof input.details === "string" ? input.details : "");
  if (details.length > REPORT_DETAILS_MAX) throw new DomainError("invalid_request", `Details can be at most ${REPORT_DETAILS_MAX} characters`, { field: "details" });
  const contact = sanitizeInput(typeof input.contact === "string" ? input.contact : "") || null;
  if (contact && !isValidEmail(contact)) throw new DomainError("invalid_request", "Please enter a valid email address, or leave it empty", { field: "contact" });
  return { path: { serverId, category: match[2]!, filename: match[3]! }, reason: input.reason, details, contact };
}

/** Files a report against a hosted file; an address that is not one answers 404 and stores nothing. */
export async function createFileReport(db: Db, input: ReportInput): Promise<{ id: string }> {
  const report = parseReport(input);
  const file = await db
    .selectFrom("files")
    .select("id")
    .where("server_id", "=", report.path.serverId)
    .where("category", "=", report.path.category)
    .where("filename", "=", report.path.filename)
    .executeTakeFirst();
  if (!file) throw new DomainError("not_found", "We could not find a file at that address. It may already have been removed.");
  return db
    .insertInto("file_reports")
    .values({ file_id: file.id, reason: report.reason, details: report.details, contact: report.contact, reporter_ip: input.ip })
    .returning("id")
    .executeTakeFirstOrThrow();
}

export function countOpenReports(db: Db): Promise<number> {
  return db
    .selectFrom("file_reports")
    .select(sql<string>`count(DISTINCT file_id)`.as("n"))
    .where("status", "=", "open")
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));
}

export interface ReportedFile {
  fileId: FileId;
  originalFilename: string;
  mimeType: string;
  url: string;
  serverName: string;
  ownerEmail: string | null;
  hidden: boolean;
  reports: { id: string; reason: string; details: string; contact: string | null; createdAt: Date; status: ReportStatus }[];
}

/** The admin queue: files with open reports (or hidden ones awaiting a decision), oldest report first. */
export async function listReportedFiles(db: Db, cdnBaseUrl: string): Promise<ReportedFile[]> {
  const rows = await db
    .selectFrom("file_reports")
    .innerJoin("files", "files.id", "file_reports.file_id")
    .innerJoin("servers", "servers.id", "files.server_id")
    .leftJoin("teams", "teams.id", "files.team_id")
    .leftJoin("users", "users.id", "teams.owner_user_id")
    .select([
      "file_reports.id",
      "file_reports.reason",
      "file_reports.details",
      "file_reports.contact",
      "file_reports.created_at",
      "file_reports.status",
      "files.id as file_id",
      "files.server_id",
      "files.category",
      "files.filename",
      "files.original_filename",
      "files.mime_type",
      "files.hidden_at",
      "servers.name as server_name",
      "users.email as owner_email",
    ])
    .where((eb) => eb.or([eb("file_reports.status", "=", "open"), eb.and([eb("file_reports.status", "=", "hidden"), eb("files.hidden_at", "is not", null)])]))
    .orderBy("file_reports.created_at", "asc")
    .limit(500)
    .execute();
  const byFile = new Map<string, ReportedFile>();
  for (const row of rows) {
    let entry = byFile.get(row.file_id);
    if (!entry) {
      entry = {
        fileId: row.file_id,
        originalFilename: row.original_filename,
        mimeType: row.mime_type,
        url: fileUrl(cdnBaseUrl, row),
        serverName: row.server_name,
        ownerEmail: row.owner_email,
        hidden: row.hidden_at !== null,
        reports: [],
      };
      byFile.set(row.file_id, entry);
    }
    entry.reports.push({ id: row.id, reason: REPORT_REASONS[row.reason as ReportReason] ?? row.reason, details: row.details, contact: row.contact, createdAt: new Date(row.created_at), status: row.status });
  }
  return [...byFile.values()];
}

type ModerationContext = Pick<AppContext, "db" | "blobs" | "logger" | "config">;

async function mailOwner(ctx: ModerationContext, fileId: FileId, subject: string, text: string): Promise<void> {
  const owner = await ctx.db
    .selectFrom("files")
    .innerJoin("teams", "teams.id", "files.team_id")
    .innerJoin("users", "users.id", "teams.owner_user_id")
    .select(["users.email", "files.original_filename"])
    .where("files.id", "=", fileId)
    .executeTakeFirst();
  if (!owner?.email) return;
  const body = text.replace("{file}", owner.original_filename);
  await sendMail(ctx, { to: owner.email, subject, text: `${body}\n`, html: `<p>${escapeHtml(body)}</p>` }).catch((error: unknown) =>
    ctx.logger.error({ err: error, fileId }, "could not e-mail the owner of a moderated file"),
  );
}

/** Hides a reported file at once (served 451), closes its open reports as acted on, and tells the owner. */
export async function hideReportedFile(ctx: ModerationContext, fileId: FileId, adminId: UserId): Promise<boolean> {
  const file = await ctx.db.updateTable("files").set({ hidden_at: new Date() }).where("id", "=", fileId).returning(["server_id", "category", "filename"]).executeTakeFirst();
  if (!file) return false;
  invalidateCachedFile(ctx.db, file);
  await ctx.db.updateTable("file_reports").set({ status: "hidden", resolved_at: new Date(), resolved_by: adminId }).where("file_id", "=", fileId).where("status", "=", "open").execute();
  await mailOwner(ctx, fileId, `A file of yours was hidden after a report`, `Your file "{file}" was reported and an administrator of ${ctx.config.APP_NAME} has hidden it while it is reviewed. Its links answer "unavailable" until it is restored. Reply to this email if you think this is a mistake.`);
  return true;
}

/** Closes a live file's open reports without acting on it: nothing changes for the file or its owner. */
export async function dismissReports(db: Db, fileId: FileId, adminId: UserId): Promise<boolean> {
  const closed = await db
    .updateTable("file_reports")
    .set({ status: "dismissed", resolved_at: new Date(), resolved_by: adminId })
    .where("file_id", "=", fileId)
    .where("status", "=", "open")
    .returning("id")
    .execute();
  return closed.length > 0;
}

/** Serves a hidden file again and dismisses the reports against it. */
export async function restoreReportedFile(ctx: ModerationContext, fileId: FileId, adminId: UserId): Promise<boolean> {
  const file = await ctx.db.updateTable("files").set({ hidden_at: null }).where("id", "=", fileId).returning(["server_id", "category", "filename", "hidden_at"]).executeTakeFirst();
  if (!file) return false;
  invalidateCachedFile(ctx.db, file);
  await ctx.db
    .updateTable("file_reports")
    .set({ status: "dismissed", resolved_at: new Date(), resolved_by: adminId })
    .where("file_id", "=", fileId)
    .where("status", "in", ["open", "hidden"])
    .execute();
  await mailOwner(ctx, fileId, `A file of yours is available again`, `Your file "{file}" was reviewed and restored; its links work again.`);
  return true;
}

/** Deletes a reported file for good (row, blobs, quota) and tells the owner. */
export async function deleteReportedFile(ctx: ModerationContext, fileId: FileId): Promise<boolean> {
  const file = await ctx.db.selectFrom("files").select(["server_id"]).where("id", "=", fileId).executeTakeFirst();
  if (!file) return false;
  await mailOwner(ctx, fileId, `A file of yours was removed after a report`, `Your file "{file}" was reported, reviewed and removed by an administrator of ${ctx.config.APP_NAME}.`);
  return Boolean(await deleteServerFile(ctx, file.server_id, fileId, { evenInOpenCase: true }));
}
