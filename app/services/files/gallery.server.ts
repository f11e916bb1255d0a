import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Db } from "../../../db/index";
import type { Database } from "../../../db/schema";
import { ALL_CATEGORIES, categoryGroupKeys } from "~/lib/categories";

export const GALLERY_PAGE_SIZE = 24;
export const GALLERY_MAX_PAGE_SIZE = 100;
const SEARCH_MAX_LENGTH = 200;

export interface GalleryQuery {
  /** Matches filename, original filename or player name, case-insensitive. */
  search?: string;
  /**
   * A category; absent or "all" means every category. Matches its whole group as screens show it:
   * "phone_photos" also finds files stored as "phone-photos" or "phone_camera" (app/lib/categories.ts).
   */
  category?: string;
  /** Opaque cursor from the previous page's `nextCursor`. */
  cursor?: string | null;
  limit?: number;
}

export interface GalleryFile {
  id: string;
  serverId: string;
  serverName: string;
  filename: string;
  originalFilename: string;
  category: string;
  mimeType: string;
  sizeBytes: number;
  playerName: string | null;
  isPublic: boolean;
  width: number | null;
  height: number | null;
  createdAt: string;
}

export interface GalleryPage {
  files: GalleryFile[];
  nextCursor: string | null;
}

interface Cursor {
  /** created_at as PostgreSQL prints it: keeps the microseconds a JS Date would drop. */
  at: string;
  id: string;
}

/** created_at::text, e.g. "2026-11-22 17:30:38.123456+00" (the offset follows the session's TimeZone). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString("base64url");
}

/** A malformed or tampered cursor reads as "from the start" rather than failing the page. */
export function decodeCursor(value: string | null | undefined): Cursor | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [at, id] = parsed as unknown[];
    if (typeof at !== "string" || typeof id !== "string" || !UUID.test(id)) return null;
    if (!TIMESTAMP.test(at)) return null;
    return { at, id };
  } catch {
    return null;
  }
}

function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function normaliseSearch(value: string | null | undefined): string {
  return (value ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
}

function pageSize(limit: number | undefined): number {
  return Math.min(Math.max(1, Math.floor(limit ?? GALLERY_PAGE_SIZE)), GALLERY_MAX_PAGE_SIZE);
}

const GALLERY_COLUMNS = [
  "files.id",
  "files.server_id",
  "servers.name as server_name",
  "files.filename",
  "files.original_filename",
  "files.category",
  "files.mime_type",
  "files.size_bytes",
  "files.player_name",
  "files.is_public",
  "files.width",
  "files.height",
  "files.created_at",
] as const;

/**
 * A search with fewer matches than this sorts just its matches (gallerySearchQuery); with more,
 * matches are dense and the ordered walk of galleryPageQuery finds a page quickly.
 */
export const GALLERY_SEARCH_SORT_CAP = 10_000;

function galleryFilters(userId: string, query: GalleryQuery) {
  const search = normaliseSearch(query.search);
  const categories = query.category && query.category !== ALL_CATEGORIES ? categoryGroupKeys(query.category) : null;
  const cursor = decodeCursor(query.cursor);
  return (eb: ExpressionBuilder<Database, "files">) => {
    const conditions: Expression<SqlBool>[] = [eb("files.user_id", "=", userId)];
    if (categories) conditions.push(sql<SqlBool>`replace(files.category, '-', '_') IN (${sql.join(categories)})`);
    if (search) {
      const pattern = likePattern(search);
      // Same expressions as the lower(...) trigram indexes, so the planner may use them.
      conditions.push(
        sql<SqlBool>`(lower(files.filename) LIKE ${pattern} OR lower(files.original_filename) LIKE ${pattern} OR lower(files.player_name) LIKE ${pattern})`,
      );
    }
    if (cursor) {
      // Written so the planner can bound the index scan with created_at <= cursor.
      conditions.push(
        sql<SqlBool>`files.created_at <= ${cursor.at}::timestamptz AND (files.created_at < ${cursor.at}::timestamptz OR files.id > ${cursor.id}::uuid)`,
      );
    }
    return eb.and(conditions);
  };
}

/**
 * The page query, one row more than the page to learn whether another follows. Keyset paging on
 * (created_at DESC, id) walks files_user_created_idx, so page 400 costs what page 1 does; an
 * offset would not. Exported so a test can EXPLAIN exactly what runs.
 */
export function galleryPageQuery(db: Db, userId: string, query: GalleryQuery = {}) {
  return db
    .selectFrom("files")
    .innerJoin("servers", "servers.id", "files.server_id")
    .select(GALLERY_COLUMNS)
    .select(sql<string>`files.created_at::text`.as("created_at_text"))
    .where(galleryFilters(userId, query))
    .orderBy("files.created_at", "desc")
    .orderBy("files.id", "asc")
    .limit(pageSize(query.limit) + 1);
}

/**
 * The page query of a search. Asked in order with a LIMIT, the planner may walk the user's
 * created_at index testing every file against the pattern — 0.5 s on a million files when it
 * bets on many matches and there are few. Here the trigram indexes collect the matches first
 * (unordered, at most the cap + 1), and only those are sorted; `match_count` tells the caller
 * whether the cap was passed. Exported so a test can EXPLAIN exactly what runs.
 */
export function gallerySearchQuery(db: Db, userId: string, query: GalleryQuery) {
  return db
    .with(
      (cte) => cte("matches").materialized(),
      (qb) => qb.selectFrom("files").select(["files.id", "files.created_at"]).where(galleryFilters(userId, query)).limit(GALLERY_SEARCH_SORT_CAP + 1),
    )
    .with("match_count", (qb) => qb.selectFrom("matches").select((eb) => eb.fn.countAll<string>().as("total")))
    .with("page", (qb) => qb.selectFrom("matches").select("id").orderBy("created_at", "desc").orderBy("id", "asc").limit(pageSize(query.limit) + 1))
    .selectFrom("match_count")
    .leftJoin("page", (join) => join.onTrue())
    .leftJoin("files", "files.id", "page.id")
    .leftJoin("servers", "servers.id", "files.server_id")
    .select(GALLERY_COLUMNS)
    .select([sql<string>`files.created_at::text`.as("created_at_text"), "match_count.total"])
    .orderBy("files.created_at", "desc")
    .orderBy("files.id", "asc");
}

type GalleryRow = Awaited<ReturnType<ReturnType<typeof galleryPageQuery>["execute"]>>[number];

async function galleryRows(db: Db, userId: string, query: GalleryQuery): Promise<GalleryRow[]> {
  if (!normaliseSearch(query.search)) return galleryPageQuery(db, userId, query).execute();
  const rows = await gallerySearchQuery(db, userId, query).execute();
  if (Number(rows[0].total) > GALLERY_SEARCH_SORT_CAP) return galleryPageQuery(db, userId, query).execute();
  return rows.filter((row) => row.id !== null).map(({ total: _total, ...row }) => row as GalleryRow);
}

/** One page of the user's files, newest first. */
export async function listGalleryFiles(db: Db, userId: string, query: GalleryQuery = {}): Promise<GalleryPage> {
  const limit = pageSize(query.limit);
  const rows = await galleryRows(db, userId, query);

  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    files: page.map((row) => ({
      id: row.id,
      serverId: row.server_id,
      serverName: row.server_name,
      filename: row.filename,
      originalFilename: row.original_filename,
      category: row.category,
      mimeType: row.mime_type,
      sizeBytes: Number(row.size_bytes),
      playerName: row.player_name,
      isPublic: row.is_public,
      width: row.width,
      height: row.height,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    nextCursor: rows.length > limit && last ? encodeCursor({ at: last.created_at_text, id: last.id }) : null,
  };
}

/** Whether the user has any file at all: picks between the two empty states. */
export async function userHasFiles(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom("files").select("id").where("user_id", "=", userId).limit(1).executeTakeFirst();
  return Boolean(row);
}
