import { LRUCache } from "lru-cache";
import type { Db } from "../../../db/index";
import type { ExpressionBuilder } from "kysely";
import type { Database, FileRecord } from "../../../db/schema";
import { FileBodyCache, type FileBodyLimits } from "~/services/files/body-cache.server";
import type { FileId, ServerId } from "~/lib/ids";

/** What serving needs of a file row; small enough to keep tens of thousands in memory. */
export type ServedFileRecord = ServedColumns & {
  /** Evidence in an open case: served whatever its expiry, as the retention sweep keeps it. */
  in_open_case: boolean;
};

type ServedColumns = Pick<
  FileRecord,
  | "id"
  | "server_id"
  | "team_id"
  | "storage_key"
  | "filename"
  | "original_filename"
  | "category"
  | "mime_type"
  | "size_bytes"
  | "sha256"
  | "width"
  | "height"
  | "duration_ms"
  | "is_public"
  | "created_at"
  | "expires_at"
  | "hidden_at"
>;

const COLUMNS = [
  "id",
  "server_id",
  "team_id",
  "storage_key",
  "filename",
  "original_filename",
  "category",
  "mime_type",
  "size_bytes",
  "sha256",
  "width",
  "height",
  "duration_ms",
  "is_public",
  "created_at",
  "expires_at",
  "hidden_at",
] as const;

/**
 * Another instance may delete a file; its cached record here dies within this TTL, so a deleted
 * file stops being served everywhere within seconds without any cross-instance messaging.
 */
export const FILE_CACHE_TTL_MS = 5_000;
const FILE_CACHE_MAX = 50_000;

interface FileCaches {
  records: LRUCache<string, ServedFileRecord>;
  /** Present once the host turned it on (server start); the script API alone never needs bodies. */
  bodies?: FileBodyCache;
}

// One set of caches per database handle: tests run several servers (each with its own db) in one process.
const caches = new WeakMap<Db, FileCaches>();

function cachesFor(db: Db): FileCaches {
  let entry = caches.get(db);
  if (!entry) {
    entry = { records: new LRUCache({ max: FILE_CACHE_MAX, ttl: FILE_CACHE_TTL_MS, ttlAutopurge: false }) };
    caches.set(db, entry);
  }
  return entry;
}

/** Turns on the in-memory copy of small file bodies for this database's /f/ path. */
export function enableFileBodyCache(db: Db, limits: FileBodyLimits): FileBodyCache {
  const entry = cachesFor(db);
  entry.bodies ??= new FileBodyCache(limits);
  return entry.bodies;
}

/** The key both caches use for /f/{server}/{category}/{filename}. */
export const filePathKey = (serverId: ServerId, category: string, filename: string) => `${serverId}/${category}/${filename}`;

/** Evidence in an open case (a case's status changes reach a cached record within its TTL). */
const inOpenCase = (eb: ExpressionBuilder<Database, "files">) =>
  eb
    .exists(eb.selectFrom("case_files as cf").innerJoin("cases as c", "c.id", "cf.case_id").select("cf.file_id").whereRef("cf.file_id", "=", "files.id").where("c.status", "=", "open"))
    .$castTo<boolean>()
    .as("in_open_case");

/** Not expired, or kept past its expiry as evidence: the sweep deletes neither, so neither is a 404. */
function isLive(record: ServedFileRecord, now = Date.now()): boolean {
  return !record.expires_at || new Date(record.expires_at).getTime() > now || record.in_open_case;
}

/** The live file at /f/{server}/{category}/{filename}, from memory when seen in the last seconds. */
export async function findFileByPath(
  db: Db,
  serverId: ServerId,
  category: string,
  filename: string,
): Promise<ServedFileRecord | undefined> {
  const { records, bodies } = cachesFor(db);
  const key = filePathKey(serverId, category, filename);
  const cached = records.get(key);
  if (cached) return isLive(cached) ? cached : undefined;
  const row = await db
    .selectFrom("files")
    .select(COLUMNS)
    .select(inOpenCase)
    .where("server_id", "=", serverId)
    .where("category", "=", category)
    .where("filename", "=", filename)
    .executeTakeFirst();
  if (!row) {
    // Deleted through another instance: its body need not wait for eviction.
    bodies?.delete(key);
    return undefined;
  }
  records.set(key, row);
  return isLive(row) ? row : undefined;
}

/** The live file at this path key when its record is in memory now (seen in the last seconds), without waiting. */
export function peekFileByPath(db: Db, key: string): ServedFileRecord | undefined {
  const cached = cachesFor(db).records.get(key);
  return cached && isLive(cached) ? cached : undefined;
}

export async function findFileById(db: Db, id: FileId): Promise<ServedFileRecord | undefined> {
  const row = await db.selectFrom("files").select(COLUMNS).select(inOpenCase).where("id", "=", id).executeTakeFirst();
  return row && isLive(row) ? row : undefined;
}

/** Call after deleting or changing a file so this instance stops serving it (record and body) at once. */
export function invalidateCachedFile(db: Db, file: Pick<FileRecord, "server_id" | "category" | "filename">): void {
  const { records, bodies } = cachesFor(db);
  const key = filePathKey(file.server_id, file.category, file.filename);
  records.delete(key);
  bodies?.delete(key);
}
