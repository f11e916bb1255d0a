import type { Db } from "../../db/index.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import type { ServableFile } from "./file-serving.server.ts";
import { findFileById, type ServedFileRecord } from "./file-lookup.server.ts";
import { isRasterImage, MediaError, type ImageLimits } from "./media/images.server.ts";
import { findVariant, getOrCreateVariant, THUMBNAIL_SPEC, variantName, type StoredVariant } from "./media/transforms.server.ts";

/** The user's own live file, public or private; another owner's file reads as missing. */
export async function findOwnedFile(db: Db, userId: string, fileId: string): Promise<ServedFileRecord | undefined> {
  const file = await findFileById(db, fileId);
  return file && file.user_id === userId ? file : undefined;
}

export function servableOriginal(file: ServedFileRecord): ServableFile {
  return {
    size: Number(file.size_bytes),
    sha256: file.sha256,
    mimeType: file.mime_type,
    lastModified: new Date(file.created_at),
    downloadName: file.original_filename || file.filename,
    isPublic: file.is_public,
  };
}

export function servableVariant(file: ServedFileRecord, variant: StoredVariant): ServableFile {
  return {
    size: Number(variant.size_bytes),
    sha256: `${file.sha256}-${variant.variant}`,
    mimeType: variant.mime_type,
    lastModified: new Date(variant.created_at),
    downloadName: `${(file.original_filename || file.filename).replace(/\.[^.]*$/, "")}.webp`,
    isPublic: file.is_public,
  };
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
  if (!isRasterImage(file.mime_type)) return null;
  try {
    return await getOrCreateVariant(deps, file, THUMBNAIL_SPEC);
  } catch (error) {
    if (error instanceof MediaError) return null;
    throw error;
  }
}
