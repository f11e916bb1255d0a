import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { ImportState } from "../../../db/schema";
import type { AppContext } from "~/services/app-context.server";
import { DomainError } from "~/services/platform/domain-error.server";
import type { ImportId, TeamId } from "~/lib/ids";
import { fileUrl } from "~/services/files/file-views.server";
import { FAILURE_CAUSES, type FailureCause } from "~/services/imports/import-items.server";
import { insertImportItems } from "~/services/imports/create-import.server";
import { importBlobPrefix } from "~/services/imports/import-blobs.server";
import { parseHostList, parseUrlList } from "~/services/imports/url-list.server";
import { discordAttachmentPath, parseDiscordAttachmentUrl } from "~/services/imports/discord-urls.server";
import { lengthChecks, PHONE_TABLES, rewriteStatements, type UrlMapping } from "~/services/imports/rewrite-report.server";

/** An import as the portal, the API and the CLI show it: progress while it runs, the report once it ended. */
export interface ImportView {
  id: ImportId;
  source: string;
  state: ImportState;
  server_id: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  progress: { total: number; done: number; stored: number; duplicates: number; failed: number; percent: number };
  stored_bytes: number;
  log_entries: number;
  failures: Array<{ cause: FailureCause; label: string; count: number }>;
  error: { code: string; message: string } | null;
  notes: string[];
}

export interface ImportReport {
  /** The statements that repair each known phone table, and how the rescued links fit its column. */
  rewrite: Array<{ label: string; table: string; column: string; max_length: number; sql: string; too_long: number; longest: number }>;
  /** The files that could not be brought, first ones first. */
  failed_items: Array<{ url: string; cause: FailureCause; reason: string; detail: string | null }>;
  failed_items_total: number;
}

const OVER: ImportState[] = ["finished", "failed", "cancelled"];
const ACTIVE: ImportState[] = ["draft", "queued", "running"];
const FAILED_ITEMS_SHOWN = 200;

type Row = Awaited<ReturnType<typeof loadRow>>;

function loadRow(db: Db, teamId: TeamId, id: ImportId) {
  return db
    .selectFrom("imports")
    .select([
      "id",
      "source",
      "state",
      "server_id",
      "created_at",
      "started_at",
      "finished_at",
      "total",
      "stored",
      "duplicates",
      "failed",
      "stored_bytes",
      "log_entries",
      "failures",
      "error_code",
      "error",
      "notes",
      "options",
    ])
    .where("team_id", "=", teamId)
    .where("id", "=", id)
    .executeTakeFirst();
}

function viewOf(row: NonNullable<Row>): ImportView {
  const done = row.stored + row.duplicates + row.failed;
  const failures = Object.entries(row.failures as Record<string, number>)
    .map(([cause, count]) => ({ cause: cause as FailureCause, label: FAILURE_CAUSES[cause as FailureCause] ?? cause, count }))
    .sort((a, b) => b.count - a.count);
  return {
    id: row.id,
    source: row.source,
    state: row.state,
    server_id: row.server_id,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
    progress: { total: row.total, done, stored: row.stored, duplicates: row.duplicates, failed: row.failed, percent: row.total ? Math.floor((done / row.total) * 100) : row.state === "finished" ? 100 : 0 },
    stored_bytes: Number(row.stored_bytes),
    log_entries: row.log_entries,
    failures,
    error: row.error ? { code: row.error_code ?? "internal_error", message: row.error } : null,
    notes: Array.isArray(row.notes) ? row.notes : [],
  };
}

async function requireRow(db: Db, teamId: TeamId, id: ImportId | undefined) {
  const row = id ? await loadRow(db, teamId, id) : undefined;
  if (!row) throw new DomainError("not_found", "Import not found");
  return row;
}

export async function getImport(db: Db, teamId: TeamId, id: ImportId | undefined): Promise<ImportView> {
  return viewOf(await requireRow(db, teamId, id));
}

export async function listImports(db: Db, teamId: TeamId, limit = 20): Promise<ImportView[]> {
  const ids = await db.selectFrom("imports").select("id").where("team_id", "=", teamId).orderBy("created_at", "desc").limit(limit).execute();
  const rows = await Promise.all(ids.map((r) => loadRow(db, teamId, r.id)));
  return rows.filter((row): row is NonNullable<Row> => Boolean(row)).map(viewOf);
}

/** Old link → new link of every file the import brought (or found already in Stash). */
export async function importUrlMap(ctx: AppContext, teamId: TeamId, id: ImportId | undefined): Promise<UrlMapping[]> {
  const row = await requireRow(ctx.db, teamId, id);
  const rows = await ctx.db
    .selectFrom("import_items as i")
    .innerJoin("files as f", "f.id", "i.file_id")
    .select(["i.ref", "i.channel_id", "i.attachment_id", "i.filename", "f.server_id", "f.category", "f.filename as stored_name"])
    .where("i.import_id", "=", row.id)
    .where("i.state", "in", ["stored", "duplicate"])
    .orderBy("i.seq")
    .execute();
  const base = ctx.config.cdnBaseUrl;
  return rows.map((r) => ({
    old: r.ref,
    new:
      r.channel_id && r.attachment_id
        ? `${base}${discordAttachmentPath(r.channel_id, r.attachment_id, r.filename ?? parseDiscordAttachmentUrl(r.ref)?.filename ?? "file")}`
        : fileUrl(base, { server_id: r.server_id, category: r.category, filename: r.stored_name }),
  }));
}

/** The report of an import: the rewrite per phone table (with its length check) and what failed. */
export async function importReport(ctx: AppContext, teamId: TeamId, id: ImportId | undefined): Promise<ImportReport> {
  const row = await requireRow(ctx.db, teamId, id);
  const base = ctx.config.cdnBaseUrl;
  const rescued = await ctx.db
    .selectFrom("import_items")
    .select("ref")
    .where("import_id", "=", row.id)
    .where("state", "in", ["stored", "duplicate"])
    .where("attachment_id", "is not", null)
    .execute();
  const checks = lengthChecks(
    rescued.map((r) => r.ref),
    base,
  );
  const failedItems = await ctx.db
    .selectFrom("import_items")
    .select(["ref", "cause", "detail"])
    .where("import_id", "=", row.id)
    .where("state", "=", "failed")
    .orderBy("seq")
    .limit(FAILED_ITEMS_SHOWN)
    .execute();
  return {
    rewrite: PHONE_TABLES.map((table, index) => ({
      label: table.label,
      table: table.table,
      column: table.column,
      max_length: table.maxLength,
      sql: rewriteStatements(table, base),
      too_long: checks[index]!.tooLong,
      longest: checks[index]!.longest,
    })),
    failed_items: failedItems.map((item) => ({
      url: item.ref.startsWith("archive:") ? item.ref.slice("archive:".length) : item.ref,
      cause: item.cause as FailureCause,
      reason: FAILURE_CAUSES[item.cause as FailureCause] ?? String(item.cause),
      detail: item.detail,
    })),
    failed_items_total: row.failed,
  };
}

/** Stops an import that is not over: its lent token is forgotten at once, its files kept as far as they came. */
export async function cancelImport(ctx: AppContext, teamId: TeamId, id: ImportId | undefined): Promise<ImportView> {
  const row = await requireRow(ctx.db, teamId, id);
  if (OVER.includes(row.state)) throw new DomainError("invalid_request", "This import has already ended");
  await ctx.db
    .updateTable("imports")
    .set({ state: "cancelled", secret: null, finished_at: new Date(), updated_at: new Date() })
    .where("id", "=", row.id)
    .where("state", "in", ACTIVE)
    .execute();
  // A running job stops at its next progress tick and deletes them too; a waiting one never will.
  for await (const blob of ctx.blobs.list(`${importBlobPrefix(row.id)}/`)) await ctx.blobs.delete(blob.key).catch(() => undefined);
  return getImport(ctx.db, teamId, row.id);
}

/** More URLs for a draft (a list sent in batches, like the FiveM scan's); repeats of earlier ones are dropped. */
export async function appendImportUrls(ctx: AppContext, teamId: TeamId, id: ImportId | undefined, urls: unknown): Promise<ImportView> {
  const row = await requireRow(ctx.db, teamId, id);
  if (row.state !== "draft") throw new DomainError("invalid_request", "URLs can only be added before the import starts");
  const hosts = parseHostList((row.options as { hosts?: string[] }).hosts ?? []);
  const list = parseUrlList(urls, { hosts, allowPrivateNetworks: ctx.config.OUTBOUND_ALLOW_PRIVATE_NETWORKS });
  await ctx.db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("imports").select(["total", "state"]).where("id", "=", row.id).forUpdate().executeTakeFirstOrThrow();
    if (current.state !== "draft") throw new DomainError("invalid_request", "URLs can only be added before the import starts");
    const attachments = list.items.filter((i) => i.attachmentId).map((i) => i.attachmentId!);
    const refs = list.items.filter((i) => !i.attachmentId).map((i) => i.ref);
    const known = await trx
      .selectFrom("import_items")
      .select(["attachment_id", "ref"])
      .where("import_id", "=", row.id)
      .where((eb) => eb.or([...(attachments.length ? [eb("attachment_id", "in", attachments)] : []), ...(refs.length ? [eb("ref", "in", refs)] : []), eb.val(false)]))
      .execute();
    const seen = new Set(known.flatMap((k) => [k.attachment_id ?? "", k.ref]));
    const fresh = list.items.filter((i) => !seen.has(i.attachmentId ?? i.ref));
    await insertImportItems(trx, row.id, fresh, current.total);
    await trx.updateTable("imports").set({ total: sql`total + ${fresh.length}`, updated_at: new Date() }).where("id", "=", row.id).execute();
  });
  return getImport(ctx.db, teamId, row.id);
}

/** Queues a draft for the job. */
export async function startImport(db: Db, teamId: TeamId, id: ImportId | undefined): Promise<ImportView> {
  const row = await requireRow(db, teamId, id);
  if (row.state !== "draft") throw new DomainError("invalid_request", "This import has already started");
  await db.updateTable("imports").set({ state: "queued", updated_at: new Date() }).where("id", "=", row.id).where("state", "=", "draft").execute();
  return getImport(db, teamId, row.id);
}
