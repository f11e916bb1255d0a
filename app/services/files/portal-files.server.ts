import type { Db } from "../../../db/index";
import { isDomainError } from "~/services/platform/domain-error.server";
import type { BlobStore } from "../../../storage/blob-store";
import type { AppContext } from "~/services/app-context.server";
import { deleteServerFile } from "~/services/files/delete-files.server";
import { findFileById, type ServedFileRecord } from "~/services/files/lookup.server";
import { fileUrl } from "~/services/files/file-views.server";
import { isRasterImage, MEDIA_REFUSALS, type ImageLimits } from "~/services/media/images.server";
import { findVariant, getOrCreateVariant, THUMBNAIL_SPEC, variantName, WAVEFORM_VARIANT, type StoredVariant } from "~/services/media/transforms.server";
import type { FileId, ServerId, TeamId } from "~/lib/ids";

/** The user's own live file, public or private; another owner's file reads as missing. */
export async function findOwnedFile(db: Db, teamId: TeamId, fileId: FileId | undefined): Promise<ServedFileRecord | undefined> {
  const file = fileId && (await findFileById(db, fileId));
  return file && file.team_id === teamId ? file : undefined;
}

/**
 * The 320 px card image: the upload-time thumbnail, made now for an image stored before
 * thumbnails existed; a video's comes from its poster frame. Null when there is none to show.
 */
export async function galleryThumbnail(
  deps: { db: Db; blobs: BlobStore; limits: ImageLimits },
  file: ServedFileRecord,
): Promise<StoredVariant | null> {
  if (file.mime_type.startsWith("video/")) {
    return (await findVariant(deps.db, file.id, variantName(THUMBNAIL_SPEC, "poster"))) ?? null;
  }
  if (file.mime_type.startsWith("audio/")) return (await findVariant(deps.db, file.id, WAVEFORM_VARIANT)) ?? null;
  if (!isRasterImage(file.mime_type)) return null;
  try {
    return await getOrCreateVariant(deps, file, THUMBNAIL_SPEC);
  } catch (error) {
    if (isDomainError(error, ...MEDIA_REFUSALS)) return null;
    throw error;
  }
}

/** The link Copy URL gives: the CDN URL of a public file, the owner-only portal URL of a private one. */
export function shareUrl(config: { cdnBaseUrl: string; appUrl: string }, file: { id: FileId; serverId: ServerId; category: string; filename: string; isPublic: boolean }): string {
  return file.isPublic
    ? fileUrl(config.cdnBaseUrl, { server_id: file.serverId, category: file.category, filename: file.filename })
    : `${config.appUrl}/api/media/${file.id}`;
}

/**
 * Deletes the user's own files (blob, variants, row) and releases their quota at once, through
 * the same service the script API uses. Ids that are not the user's are skipped, and so are files in
 * an open evidence case (if only those were asked for, their 409 is thrown); returns the ids deleted.
 */
export async function deleteOwnedFiles(ctx: Pick<AppContext, "db" | "blobs" | "logger">, teamId: TeamId, fileIds: readonly FileId[]): Promise<FileId[]> {
  const ids = [...new Set(fileIds)];
  if (ids.length === 0) return [];
  const owned = await ctx.db.selectFrom("files").select(["id", "server_id"]).where("team_id", "=", teamId).where("id", "in", ids).execute();
  const deleted: FileId[] = [];
  let held: unknown;
  for (const file of owned) {
    try {
      // deleteServerFile drops the file's cached record too.
      if (await deleteServerFile(ctx, file.server_id, file.id)) deleted.push(file.id);
    } catch (error) {
      if (!isDomainError(error, "file_in_open_case")) throw error;
      held = error;
    }
  }
  // Only evidence was asked for: say why nothing went.
  if (deleted.length === 0 && held) throw held;
  return deleted;
}
