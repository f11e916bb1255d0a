import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Readable } from "node:stream";
import { z } from "zod";
import type { ExpressionBuilder } from "kysely";
import type { Db } from "../../../db/index";
import type { Database } from "../../../db/schema";
import type { BlobStore } from "../../../storage/blob-store";
import { cleaned } from "~/lib/sanitize";
import { DomainError } from "~/services/platform/domain-error.server";
import { parseId } from "~/services/platform/ids.server";
import { streamZip, uniqueNames } from "~/services/files/file-archive.server";
import { fileUrl } from "~/services/files/file-views.server";
import type { ApiKeyId, CaseId, FileId, ServerId, TeamId, UserId } from "~/lib/ids";

export interface EvidenceCase {
  id: CaseId;
  serverId: ServerId;
  number: string;
  title: string;
  notes: string;
  status: "open" | "closed";
  createdAt: Date;
  closedAt: Date | null;
}

/** Who put a file in a case: a person in the portal or a script's key. */
export type CaseActor = { userId: UserId | null } | { keyId: ApiKeyId };

const CASE_NUMBER = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;
export const MAX_CASE_FILES = 500;

const caseInput = z.object({
  number: z.string({ error: "number is required" }).trim().regex(CASE_NUMBER, "number must be 1–40 letters, digits, _, . or -"),
  title: cleaned(z.string().max(200, "title can be at most 200 characters")).optional(),
  notes: cleaned(z.string().max(5000, "notes can be at most 5000 characters")).optional(),
});

export function parseCaseNumber(value: unknown): string {
  const parsed = caseInput.shape.number.safeParse(value);
  if (!parsed.success) throw new DomainError("invalid_request", parsed.error.issues[0]?.message ?? "Invalid case number", { field: "case" });
  return parsed.data;
}

const columns = ["id", "server_id", "number", "title", "notes", "status", "created_at", "closed_at"] as const;
type CaseRow = { id: CaseId; server_id: ServerId; number: string; title: string; notes: string; status: "open" | "closed"; created_at: Date; closed_at: Date | null };
const toCase = (row: CaseRow): EvidenceCase => ({
  id: row.id,
  serverId: row.server_id,
  number: row.number,
  title: row.title,
  notes: row.notes,
  status: row.status,
  createdAt: row.created_at,
  closedAt: row.closed_at,
});

/**
 * Opens case `number` on a server, or answers the one already there (an MDT may send the same case
 * with every upload); a title or notes given for an existing case replace its own.
 */
export async function openCase(db: Db, input: { serverId: ServerId; teamId: TeamId; body: unknown }): Promise<{ evidenceCase: EvidenceCase; created: boolean }> {
  const parsed = caseInput.safeParse(input.body ?? {});
  if (!parsed.success) throw new DomainError("invalid_request", parsed.error.issues[0]?.message ?? "Invalid case");
  const { number, title, notes } = parsed.data;
  const existing = await db.selectFrom("cases").select(columns).where("server_id", "=", input.serverId).where("number", "=", number).executeTakeFirst();
  if (existing) {
    if (title === undefined && notes === undefined) return { evidenceCase: toCase(existing), created: false };
    const updated = await db
      .updateTable("cases")
      .set({ ...(title ? { title } : {}), ...(notes !== undefined ? { notes } : {}) })
      .where("id", "=", existing.id)
      .returning(columns)
      .executeTakeFirstOrThrow();
    return { evidenceCase: toCase(updated), created: false };
  }
  const row = await db
    .insertInto("cases")
    .values({ server_id: input.serverId, team_id: input.teamId, number, title: title || `Case ${number}`, notes: notes ?? "", signing_key: randomBytes(32).toString("hex") })
    .onConflict((oc) => oc.columns(["server_id", "number"]).doNothing())
    .returning(columns)
    .executeTakeFirst();
  // Two scripts opened the same case at once: the other one made it.
  if (!row) return { evidenceCase: toCase(await db.selectFrom("cases").select(columns).where("server_id", "=", input.serverId).where("number", "=", number).executeTakeFirstOrThrow()), created: false };
  return { evidenceCase: toCase(row), created: true };
}

export async function findCase(db: Db, serverId: ServerId, number: string): Promise<EvidenceCase | undefined> {
  const row = await db.selectFrom("cases").select(columns).where("server_id", "=", serverId).where("number", "=", number).executeTakeFirst();
  return row ? toCase(row) : undefined;
}

/** Puts files of the case's server into an open case, recording who and when; files already in it keep their first entry. */
/** 400 unless the case is open and has room for `count` more files. */
async function assertCaseTakes(db: Db, evidenceCase: EvidenceCase, count: number): Promise<void> {
  if (evidenceCase.status !== "open") throw new DomainError("invalid_request", `Case ${evidenceCase.number} is closed; reopen it to add files`, { case: evidenceCase.number });
  const held = await db.selectFrom("case_files").select((eb) => eb.fn.countAll<string>().as("n")).where("case_id", "=", evidenceCase.id).executeTakeFirstOrThrow();
  if (Number(held.n) + count > MAX_CASE_FILES) throw new DomainError("invalid_request", `A case holds at most ${MAX_CASE_FILES} files`);
}

/** For an upload naming case `number`: refuses, before anything is stored, a closed or full case (a new number is opened afterwards). */
export async function assertCaseAccepts(db: Db, serverId: ServerId, number: string, count: number): Promise<void> {
  const existing = await findCase(db, serverId, number);
  if (existing) await assertCaseTakes(db, existing, count);
}

export async function addFilesToCase(db: Db, evidenceCase: EvidenceCase, fileIds: FileId[], by: CaseActor): Promise<number> {
  const owned = fileIds.length ? await db.selectFrom("files").select("id").where("server_id", "=", evidenceCase.serverId).where("id", "in", fileIds).execute() : [];
  await assertCaseTakes(db, evidenceCase, owned.length);
  if (owned.length === 0) return 0;
  const result = await db
    .insertInto("case_files")
    .values(owned.map((f) => ({ case_id: evidenceCase.id, file_id: f.id, added_by_user_id: "userId" in by ? by.userId : null, added_by_key_id: "keyId" in by ? by.keyId : null })))
    .onConflict((oc) => oc.columns(["case_id", "file_id"]).doNothing())
    .execute();
  return result.reduce((sum, r) => sum + Number(r.numInsertedOrUpdatedRows ?? 0), 0);
}

/** Closes or reopens a case; closing lets its files be deleted and the retention rules apply again. */
export async function setCaseStatus(db: Db, serverId: ServerId, number: string, status: "open" | "closed"): Promise<EvidenceCase | undefined> {
  const row = await db
    .updateTable("cases")
    .set({ status, closed_at: status === "closed" ? new Date() : null })
    .where("server_id", "=", serverId)
    .where("number", "=", number)
    .returning(columns)
    .executeTakeFirst();
  return row ? toCase(row) : undefined;
}

function sign(manifest: Buffer, key: string): string {
  return createHmac("sha256", Buffer.from(key, "hex")).update(manifest).digest("hex");
}

/**
 * A case as a zip: every file under files/, manifest.json (case, then each file's name in the zip,
 * original name, size, SHA-256, upload time, uploading key, who added it to the case and when, its
 * metadata) and manifest.sig, an HMAC-SHA256 of manifest.json under a key only Stash holds, which
 * `verifyCaseManifest` checks.
 */
export async function exportCase(deps: { db: Db; blobs: BlobStore }, evidenceCase: EvidenceCase, now = new Date()): Promise<{ stream: Readable; manifest: Buffer; signature: string }> {
  const files = await deps.db
    .selectFrom("case_files as cf")
    .innerJoin("files as f", "f.id", "cf.file_id")
    .leftJoin("api_keys as k", "k.id", "f.api_key_id")
    .leftJoin("api_keys as adder", "adder.id", "cf.added_by_key_id")
    .leftJoin("users as u", "u.id", "cf.added_by_user_id")
    .select([
      "f.id",
      "f.storage_key",
      "f.original_filename",
      "f.mime_type",
      "f.size_bytes",
      "f.sha256",
      "f.created_at",
      "f.uploaded_via",
      "f.player_name",
      "f.player_identifier",
      "f.metadata",
      "k.name as upload_key",
      "cf.added_at",
      "adder.name as added_by_key",
      "u.email as added_by_user",
    ])
    .where("cf.case_id", "=", evidenceCase.id)
    .orderBy("f.created_at", "asc")
    .execute();
  const names = uniqueNames(files.map((f) => f.original_filename)).map((name) => `files/${name}`);
  const manifest = Buffer.from(
    `${JSON.stringify(
      {
        case: { id: evidenceCase.id, number: evidenceCase.number, title: evidenceCase.title, status: evidenceCase.status, opened_at: evidenceCase.createdAt, closed_at: evidenceCase.closedAt },
        exported_at: now.toISOString(),
        files: files.map((f, i) => ({
          path: names[i],
          file_id: f.id,
          original_filename: f.original_filename,
          mime_type: f.mime_type,
          size_bytes: Number(f.size_bytes),
          sha256: f.sha256,
          uploaded_at: f.created_at,
          uploaded_via: f.uploaded_via,
          upload_key: f.upload_key,
          player_name: f.player_name,
          player_identifier: f.player_identifier,
          metadata: f.metadata,
          added_to_case_at: f.added_at,
          added_by: f.added_by_key ? `key ${f.added_by_key}` : (f.added_by_user ?? null),
        })),
      },
      null,
      2,
    )}\n`,
  );
  const { signing_key: key } = await deps.db.selectFrom("cases").select("signing_key").where("id", "=", evidenceCase.id).executeTakeFirstOrThrow();
  const signature = sign(manifest, key);
  const stream = streamZip(
    deps.blobs,
    files.map((f, i) => ({ name: names[i]!, storageKey: f.storage_key, size: Number(f.size_bytes), mtime: new Date(f.created_at) })),
    [
      { name: "manifest.json", data: manifest },
      { name: "manifest.sig", data: Buffer.from(`${signature}\n`) },
    ],
  );
  return { stream, manifest, signature };
}

/** Whether `signature` is Stash's signature of exactly these manifest bytes (of a case that still exists). */
export async function verifyCaseManifest(db: Db, manifest: Buffer, signature: string): Promise<boolean> {
  let caseId: CaseId | undefined;
  try {
    caseId = parseId<CaseId>((JSON.parse(manifest.toString("utf8")) as { case?: { id?: unknown } }).case?.id);
  } catch {
    return false;
  }
  if (!caseId || !/^[0-9a-f]{64}$/.test(signature.trim())) return false;
  const row = await db.selectFrom("cases").select("signing_key").where("id", "=", caseId).executeTakeFirst();
  if (!row) return false;
  return timingSafeEqual(Buffer.from(sign(manifest, row.signing_key), "hex"), Buffer.from(signature.trim(), "hex"));
}

/** The files of a case, oldest first, with their links and when they joined it. */
export async function listCaseFiles(db: Db, cdnBaseUrl: string, evidenceCase: EvidenceCase) {
  const rows = await db
    .selectFrom("case_files as cf")
    .innerJoin("files as f", "f.id", "cf.file_id")
    .select(["f.id", "f.server_id", "f.category", "f.filename", "f.original_filename", "f.mime_type", "f.size_bytes", "f.sha256", "f.created_at", "cf.added_at"])
    .where("cf.case_id", "=", evidenceCase.id)
    .orderBy("f.created_at", "asc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    url: fileUrl(cdnBaseUrl, row),
    original_filename: row.original_filename,
    mime_type: row.mime_type,
    size_bytes: Number(row.size_bytes),
    sha256: row.sha256,
    uploaded_at: row.created_at,
    added_at: row.added_at,
  }));
}

export interface CaseSummary extends EvidenceCase {
  serverName: string;
  fileCount: number;
  /** How many members the case is restricted to; 0: the whole team. */
  memberCount: number;
}

/**
 * Who is looking at a team's cases: a case restricted to some members is shown only to them and to
 * those who see every case (the team's owners and admins, who manage members).
 */
export interface CaseViewer {
  userId: UserId;
  seesAll: boolean;
}

/** The viewer a member is: owners and admins (who manage members) see every case of the team. */
export function caseViewerOf(userId: UserId, permissions: readonly string[]): CaseViewer {
  return { userId, seesAll: permissions.includes("manage_members") };
}

function visibleTo(viewer: CaseViewer) {
  return (eb: ExpressionBuilder<Database & { c: Database["cases"] }, "c">) =>
    viewer.seesAll
      ? eb.val(true)
      : eb.or([
          eb.not(eb.exists(eb.selectFrom("case_members as cm").select("cm.user_id").whereRef("cm.case_id", "=", "c.id"))),
          eb.exists(eb.selectFrom("case_members as cm").select("cm.user_id").whereRef("cm.case_id", "=", "c.id").where("cm.user_id", "=", viewer.userId)),
        ]);
}

/** Every case of the team's servers the viewer may see, open ones first, newest first. */
export async function listCasesForTeam(db: Db, teamId: TeamId, viewer: CaseViewer): Promise<CaseSummary[]> {
  const rows = await db
    .selectFrom("cases as c")
    .innerJoin("servers as s", "s.id", "c.server_id")
    .select(["c.id", "c.server_id", "c.number", "c.title", "c.notes", "c.status", "c.created_at", "c.closed_at", "s.name as server_name"])
    .select((eb) => eb.selectFrom("case_files as cf").select((sub) => sub.fn.countAll<string>().as("n")).whereRef("cf.case_id", "=", "c.id").as("file_count"))
    .select((eb) => eb.selectFrom("case_members as cm").select((sub) => sub.fn.countAll<string>().as("n")).whereRef("cm.case_id", "=", "c.id").as("member_count"))
    .where("s.team_id", "=", teamId)
    .where(visibleTo(viewer))
    .orderBy("c.status", "desc")
    .orderBy("c.created_at", "desc")
    .execute();
  return rows.map((row) => ({ ...toCase(row), serverName: row.server_name, fileCount: Number(row.file_count ?? 0), memberCount: Number(row.member_count ?? 0) }));
}

/** A case of one of the team's servers by id that the viewer may see; undefined for any other. */
export async function findCaseForTeam(db: Db, teamId: TeamId, caseId: CaseId | undefined, viewer: CaseViewer): Promise<EvidenceCase | undefined> {
  if (!caseId) return undefined;
  const row = await db
    .selectFrom("cases as c")
    .innerJoin("servers as s", "s.id", "c.server_id")
    .select(["c.id", "c.server_id", "c.number", "c.title", "c.notes", "c.status", "c.created_at", "c.closed_at"])
    .where("c.id", "=", caseId)
    .where("s.team_id", "=", teamId)
    .where(visibleTo(viewer))
    .executeTakeFirst();
  return row ? toCase(row) : undefined;
}

/** For the file view: the cases a file is in, and the open cases of its server it could join (those the viewer may see). */
export async function caseChoicesForFile(db: Db, serverId: ServerId, fileId: FileId, viewer: CaseViewer) {
  const rows = await db
    .selectFrom("cases as c")
    .leftJoin("case_files as cf", (join) => join.onRef("cf.case_id", "=", "c.id").on("cf.file_id", "=", fileId))
    .select(["c.id", "c.number", "c.title", "c.status", "cf.file_id"])
    .where("c.server_id", "=", serverId)
    .where(visibleTo(viewer))
    .where((eb) => eb.or([eb("cf.file_id", "is not", null), eb("c.status", "=", "open")]))
    .orderBy("c.created_at", "desc")
    .execute();
  return {
    inCases: rows.filter((r) => r.file_id !== null).map((r) => ({ number: r.number, status: r.status })),
    openCases: rows.filter((r) => r.file_id === null).map((r) => ({ id: r.id, label: `${r.number} · ${r.title}` })),
  };
}
