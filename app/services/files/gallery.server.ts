import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Db } from "../../../db/index";
import type { Database } from "../../../db/schema";
import { ALL_CATEGORIES, categoryGroupKeys } from "~/lib/categories";
import { isUuid } from "~/services/platform/ids.server";
import { isCalendarDay } from "~/lib/calendar-day";
import type { FileId, ServerId, TeamId } from "~/lib/ids";

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
  /** Only this server's files (one of the user's). */
  serverId?: ServerId | null;
  /** A player, by name or identifier (license:…, discord:…), exact but case-insensitive. */
  player?: string | null;
  /** Uploaded on or after this UTC day (YYYY-MM-DD). */
  from?: string | null;
  /** Uploaded on or before this UTC day (YYYY-MM-DD). */
  to?: string | null;
  /** Order of the list; newest first unless asked. */
  sort?: GallerySort;
  /** Opaque cursor from the previous page's `nextCursor` (of the same sort). */
  cursor?: string | null;
  limit?: number;
}

export const GALLERY_SORTS = ["newest", "oldest", "largest", "name"] as const;
export type GallerySort = (typeof GALLERY_SORTS)[number];

export function parseGallerySort(value: string | null | undefined): GallerySort {
  return (GALLERY_SORTS as readonly string[]).includes(value ?? "") ? (value as GallerySort) : "newest";
}

export interface GalleryFile {
  id: FileId;
  serverId: ServerId;
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
  thumbhash: string | null;
  createdAt: string;
}

export interface GalleryPage {
  files: GalleryFile[];
  nextCursor: string | null;
}

interface Cursor {
  /**
   * The sort key of the last row as text: created_at as PostgreSQL prints it (keeps the
   * microseconds a JS Date would drop), the size in bytes, or the lower-cased original name.
   */
  at: string;
  id: string;
}

/** created_at::text, e.g. "2026-11-22 17:30:38.123456+00" (the offset follows the session's TimeZone). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;

export function encodeCursor(cursor: Cursor, sort: GallerySort = "newest"): string {
  const parts = sort === "newest" ? [cursor.at, cursor.id] : [sort, cursor.at, cursor.id];
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

const SORT_KEY_FORMAT: Record<GallerySort, (at: string) => boolean> = {
  newest: (at) => TIMESTAMP.test(at),
  oldest: (at) => TIMESTAMP.test(at),
  largest: (at) => /^\d{1,15}$/.test(at),
  name: (at) => at.length <= 1000,
};

/** A malformed or tampered cursor, or one of another sort, reads as "from the start" rather than failing the page. */
export function decodeCursor(value: string | null | undefined, sort: GallerySort = "newest"): Cursor | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed)) return null;
    const parts = parsed as unknown[];
    const [cursorSort, at, id] = parts.length === 2 ? ["newest", ...parts] : parts;
    if (parts.length > 3 || cursorSort !== sort) return null;
    if (typeof at !== "string" || typeof id !== "string" || !isUuid(id)) return null;
    if (!SORT_KEY_FORMAT[sort](at)) return null;
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
  "files.thumbhash",
  "files.created_at",
] as const;

/**
 * A search with fewer matches than this sorts just its matches (gallerySearchQuery); with more,
 * matches are dense and the ordered walk of galleryPageQuery finds a page quickly.
 */
export const GALLERY_SEARCH_SORT_CAP = 10_000;

function galleryFilters(teamId: TeamId, query: GalleryQuery) {
  const search = normaliseSearch(query.search);
  const categories = query.category && query.category !== ALL_CATEGORIES ? categoryGroupKeys(query.category) : null;
  const sort = query.sort ?? "newest";
  const cursor = decodeCursor(query.cursor, sort);
  return (eb: ExpressionBuilder<Database, "files">) => {
    const conditions: Expression<SqlBool>[] = [eb("files.team_id", "=", teamId)];
    if (query.serverId) conditions.push(eb("files.server_id", "=", query.serverId));
    const player = query.player?.trim();
    if (player) conditions.push(sql<SqlBool>`(lower(files.player_name) = ${player.toLowerCase()} OR lower(files.player_identifier) = ${player.toLowerCase()})`);
    if (query.from && isCalendarDay(query.from)) conditions.push(sql<SqlBool>`files.created_at >= (${query.from}::date::timestamp AT TIME ZONE 'UTC')`);
    if (query.to && isCalendarDay(query.to)) conditions.push(sql<SqlBool>`files.created_at < ((${query.to}::date + 1)::timestamp AT TIME ZONE 'UTC')`);
    if (categories) conditions.push(sql<SqlBool>`replace(files.category, '-', '_') IN (${sql.join(categories)})`);
    if (search) {
      const pattern = likePattern(search);
      // Same expressions as the lower(...) trigram indexes, so the planner may use them.
      conditions.push(
        sql<SqlBool>`(lower(files.filename) LIKE ${pattern} OR lower(files.original_filename) LIKE ${pattern} OR lower(files.player_name) LIKE ${pattern})`,
      );
    }
    if (cursor) conditions.push(afterCursor(sort, cursor));
    return eb.and(conditions);
  };
}

/** Rows after the cursor in `sort` order; each written so the planner can bound its index scan. */
function afterCursor(sort: GallerySort, cursor: Cursor): Expression<SqlBool> {
  switch (sort) {
    case "newest":
      return sql<SqlBool>`files.created_at <= ${cursor.at}::timestamptz AND (files.created_at < ${cursor.at}::timestamptz OR files.id > ${cursor.id}::uuid)`;
    case "oldest":
      return sql<SqlBool>`files.created_at >= ${cursor.at}::timestamptz AND (files.created_at > ${cursor.at}::timestamptz OR files.id > ${cursor.id}::uuid)`;
    case "largest":
      return sql<SqlBool>`files.size_bytes <= ${cursor.at}::bigint AND (files.size_bytes < ${cursor.at}::bigint OR files.id > ${cursor.id}::uuid)`;
    case "name":
      return sql<SqlBool>`lower(files.original_filename) >= ${cursor.at} AND (lower(files.original_filename) > ${cursor.at} OR files.id > ${cursor.id}::uuid)`;
  }
}

/** The sort key of a row as text, what the next page's cursor carries. */
const SORT_KEY_SQL: Record<GallerySort, ReturnType<typeof sql<string>>> = {
  newest: sql<string>`files.created_at::text`,
  oldest: sql<string>`files.created_at::text`,
  largest: sql<string>`files.size_bytes::text`,
  name: sql<string>`lower(files.original_filename)`,
};

/**
 * The page query, one row more than the page to learn whether another follows. Keyset paging on
 * (created_at DESC, id) walks files_user_created_idx, so page 400 costs what page 1 does; an
 * offset would not. Exported so a test can EXPLAIN exactly what runs.
 */
export function galleryPageQuery(db: Db, teamId: TeamId, query: GalleryQuery = {}) {
  const sort = query.sort ?? "newest";
  const base = db
    .selectFrom("files")
    .innerJoin("servers", "servers.id", "files.server_id")
    .select(GALLERY_COLUMNS)
    .select(SORT_KEY_SQL[sort].as("created_at_text"))
    .where(galleryFilters(teamId, query));
  const ordered =
    sort === "newest"
      ? base.orderBy("files.created_at", "desc")
      : sort === "oldest"
        ? base.orderBy("files.created_at", "asc")
        : sort === "largest"
          ? base.orderBy("files.size_bytes", "desc")
          : base.orderBy(sql`lower(files.original_filename)`, "asc");
  return ordered.orderBy("files.id", "asc").limit(pageSize(query.limit) + 1);
}

/**
 * The page query of a search. Asked in order with a LIMIT, the planner may walk the user's
 * created_at index testing every file against the pattern — 0.5 s on a million files when it
 * bets on many matches and there are few. Here the trigram indexes collect the matches first
 * (unordered, at most the cap + 1), and only those are sorted; `match_count` tells the caller
 * whether the cap was passed. Exported so a test can EXPLAIN exactly what runs.
 */
export function gallerySearchQuery(db: Db, teamId: TeamId, query: GalleryQuery) {
  return db
    .with(
      (cte) => cte("matches").materialized(),
      (qb) => qb.selectFrom("files").select(["files.id", "files.created_at"]).where(galleryFilters(teamId, query)).limit(GALLERY_SEARCH_SORT_CAP + 1),
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

async function galleryRows(db: Db, teamId: TeamId, query: GalleryQuery): Promise<GalleryRow[]> {
  // The capped search sorts by date only; other orders walk their own index with the filter.
  if (!normaliseSearch(query.search) || (query.sort ?? "newest") !== "newest") return galleryPageQuery(db, teamId, query).execute();
  const rows = await gallerySearchQuery(db, teamId, query).execute();
  if (Number(rows[0].total) > GALLERY_SEARCH_SORT_CAP) return galleryPageQuery(db, teamId, query).execute();
  return rows.filter((row) => row.id !== null).map(({ total: _total, ...row }) => row as GalleryRow);
}

/** One page of the user's files, newest first. */
export async function listGalleryFiles(db: Db, teamId: TeamId, query: GalleryQuery = {}): Promise<GalleryPage> {
  const limit = pageSize(query.limit);
  const rows = await galleryRows(db, teamId, query);

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
      thumbhash: row.thumbhash,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    nextCursor: rows.length > limit && last ? encodeCursor({ at: last.created_at_text, id: last.id }, query.sort) : null,
  };
}

/** Whether the user has any file at all: picks between the two empty states. */
export async function userHasFiles(db: Db, teamId: TeamId): Promise<boolean> {
  const row = await db.selectFrom("files").select("id").where("team_id", "=", teamId).limit(1).executeTakeFirst();
  return Boolean(row);
}
