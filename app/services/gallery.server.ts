import { sql } from "kysely";
import type { Db } from "../../db/index.ts";
import { ALL_CATEGORIES } from "../lib/media-categories.ts";

export const GALLERY_PAGE_SIZE = 24;
export const GALLERY_MAX_PAGE_SIZE = 100;
const SEARCH_MAX_LENGTH = 200;

export interface GalleryQuery {
  /** Matches filename, original filename or player name, case-insensitive. */
  search?: string;
  /** A category value; absent or "all" means every category. */
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

/**
 * The page query, one row more than the page to learn whether another follows. Keyset paging on
 * (created_at DESC, id) walks files_user_created_idx, so page 400 costs what page 1 does; an
 * offset would not. Exported so a test can EXPLAIN exactly what runs.
 */
export function galleryPageQuery(db: Db, userId: string, query: GalleryQuery = {}) {
  const search = normaliseSearch(query.search);
  const category = query.category && query.category !== ALL_CATEGORIES ? query.category : null;
  const cursor = decodeCursor(query.cursor);

  let q = db
    .selectFrom("files")
    .innerJoin("servers", "servers.id", "files.server_id")
    .select([
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
      sql<string>`files.created_at::text`.as("created_at_text"),
    ])
    .where("files.user_id", "=", userId);
  if (category) q = q.where("files.category", "=", category);
  if (search) {
    const pattern = likePattern(search);
    // Same expressions as the lower(...) trigram indexes, so the planner may use them.
    q = q.where(
      sql<boolean>`(lower(files.filename) LIKE ${pattern} OR lower(files.original_filename) LIKE ${pattern} OR lower(files.player_name) LIKE ${pattern})`,
    );
  }
  if (cursor) {
    // Written so the planner can bound the index scan with created_at <= cursor.
    q = q.where(
      sql<boolean>`files.created_at <= ${cursor.at}::timestamptz AND (files.created_at < ${cursor.at}::timestamptz OR files.id > ${cursor.id}::uuid)`,
    );
  }
  return q
    .orderBy("files.created_at", "desc")
    .orderBy("files.id", "asc")
    .limit(pageSize(query.limit) + 1);
}

/** One page of the user's files, newest first. */
export async function listGalleryFiles(db: Db, userId: string, query: GalleryQuery = {}): Promise<GalleryPage> {
  const limit = pageSize(query.limit);
  const rows = await galleryPageQuery(db, userId, query).execute();

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
