import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { UploadVia } from "../../../db/schema";
import { categorySlug } from "~/lib/categories";
import { invalidateCachedFile } from "~/services/files/lookup.server";
import type { FileId, ServerId, TeamId } from "~/lib/ids";
import { MP4_COPY_VARIANT } from "~/services/media/transforms.server";
import { wantsMp4Copy } from "~/services/media/video.server";

/** Where a video's MP4 copy stands (docs/decisions/095); null for a file that gets none. */
export type Mp4CopyState =
  | { state: "ready"; sizeBytes: number }
  | { state: "queued" }
  | { state: "failed"; reason: string }
  /** A free plan's copy is made on the first `?format=mp4` request. */
  | { state: "on_request" };

export const MAX_BULK_FILES = 100;

/** Everything the file detail view shows about one of the owner's files. */
export interface FileDetails {
  id: FileId;
  serverId: ServerId;
  serverName: string;
  filename: string;
  originalFilename: string;
  category: string;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  isPublic: boolean;
  playerName: string | null;
  playerIdentifier: string | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
  uploadedVia: UploadVia;
  /** The key's name; null for the portal, a webhook, or a key deleted since. */
  keyName: string | null;
  hidden: boolean;
  keepForever: boolean;
  mp4Copy: Mp4CopyState | null;
}

export async function findFileDetails(db: Db, teamId: TeamId, fileId: FileId | undefined): Promise<FileDetails | undefined> {
  if (!fileId) return undefined;
  const row = await db
    .selectFrom("files")
    .innerJoin("servers", "servers.id", "files.server_id")
    .leftJoin("api_keys", "api_keys.id", "files.api_key_id")
    .selectAll("files")
    .select(["servers.name as server_name", "api_keys.name as key_name"])
    .where("files.id", "=", fileId)
    .where("files.team_id", "=", teamId)
    .executeTakeFirst();
  if (!row) return undefined;
  const copy = wantsMp4Copy(row.mime_type, row.duration_ms)
    ? await db.selectFrom("file_variants").select("size_bytes").where("file_id", "=", row.id).where("variant", "=", MP4_COPY_VARIANT).executeTakeFirst()
    : undefined;
  const mp4Copy: Mp4CopyState | null = !wantsMp4Copy(row.mime_type, row.duration_ms)
    ? null
    : copy
      ? { state: "ready", sizeBytes: Number(copy.size_bytes) }
      : row.mp4_failed_at
        ? { state: "failed", reason: row.mp4_failure ?? "The MP4 copy could not be made." }
        : row.mp4_wanted_at
          ? { state: "queued" }
          : { state: "on_request" };
  const metadata = typeof row.metadata === "string" ? (JSON.parse(row.metadata) as unknown) : row.metadata;
  return {
    id: row.id,
    serverId: row.server_id,
    serverName: row.server_name,
    filename: row.filename,
    originalFilename: row.original_filename,
    category: row.category,
    mimeType: row.mime_type,
    sizeBytes: Number(row.size_bytes),
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    durationMs: row.duration_ms,
    isPublic: row.is_public,
    playerName: row.player_name,
    playerIdentifier: row.player_identifier,
    metadata: metadata && typeof metadata === "object" && !Array.isArray(metadata) ? (metadata as Record<string, unknown>) : {},
    createdAt: new Date(row.created_at),
    uploadedVia: row.uploaded_via,
    keyName: row.key_name,
    hidden: row.hidden_at !== null,
    keepForever: row.retention_exempt,
    mp4Copy,
  };
}

/** A file as the audit trail names it: its id and the name the team knows it by. */
export interface NamedFile {
  id: FileId;
  name: string;
  serverId: ServerId;
}

/** The team's files among `fileIds`, with their names; another team's files and unknown ids are left out. */
export async function findTeamFiles(db: Db, teamId: TeamId, fileIds: readonly FileId[]): Promise<NamedFile[]> {
  if (fileIds.length === 0) return [];
  const rows = await db
    .selectFrom("files")
    .select(["id", "original_filename", "server_id"])
    .where("team_id", "=", teamId)
    .where("id", "in", [...new Set(fileIds)])
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.original_filename, serverId: row.server_id }));
}

function ownedIds(fileIds: readonly FileId[]): FileId[] {
  return [...new Set(fileIds)];
}

/** Makes the owner's files public or private; their cached records here are dropped so /f/ follows at once. Returns the ids it changed. */
export async function setFilesVisibility(db: Db, teamId: TeamId, fileIds: readonly FileId[], isPublic: boolean): Promise<FileId[]> {
  const ids = ownedIds(fileIds);
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable("files")
    .set({ is_public: isPublic })
    .where("team_id", "=", teamId)
    .where("id", "in", ids)
    .returning(["id", "server_id", "category", "filename"])
    .execute();
  for (const row of rows) invalidateCachedFile(db, row);
  return rows.map((row) => row.id);
}

export interface CategoryMove {
  /** The files moved. */
  movedIds: string[];
  /** Files left where they were because a file of the same name already sits in the target category. */
  conflicts: number;
  category: string;
}

/**
 * Moves the owner's files to another category (slugged as uploads are). The category is part of a
 * file's URL, so old links stop working; a name already taken in the target category is skipped.
 */
export async function moveFilesToCategory(db: Db, teamId: TeamId, fileIds: readonly FileId[], rawCategory: string): Promise<CategoryMove> {
  const category = categorySlug(rawCategory);
  const ids = ownedIds(fileIds);
  if (ids.length === 0) return { movedIds: [], conflicts: 0, category };
  return db.transaction().execute(async (trx) => {
    const files = await trx
      .selectFrom("files")
      .select(["id", "server_id", "category", "filename"])
      .where("team_id", "=", teamId)
      .where("id", "in", ids)
      .where("category", "<>", category)
      .forUpdate()
      .execute();
    if (files.length === 0) return { movedIds: [], conflicts: 0, category };
    const moved = await trx
      .updateTable("files")
      .set({ category })
      .where("id", "in", files.map((f) => f.id))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("files as taken")
              .select(sql`1`.as("one"))
              .whereRef("taken.server_id", "=", "files.server_id")
              .whereRef("taken.filename", "=", "files.filename")
              .where("taken.category", "=", category),
          ),
        ),
      )
      .returning("id")
      .execute();
    const movedIds = new Set(moved.map((m) => m.id));
    for (const file of files) if (movedIds.has(file.id)) invalidateCachedFile(db, file);
    return { movedIds: [...movedIds], conflicts: files.length - moved.length, category };
  });
}
