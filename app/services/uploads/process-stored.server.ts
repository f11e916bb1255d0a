import { ApiError, type ApiErrorCode } from "~/lib/api-response";
import type { AppContext } from "~/services/app-context.server";
import { MediaError } from "~/services/media/images.server";
import { processUploadedMedia } from "~/services/media/process-upload.server";
import type { StoredUpload, UploadTarget } from "~/services/uploads/store-upload.server";

/**
 * The seam between storing an upload's bytes and inserting its row: runs once per file, after its
 * blob is written and before the transaction that reserves quota and inserts the row. Images are
 * checked (pixel and frame limits, corrupt data), converted to WebP or stripped of metadata as the
 * server's settings say, and get a thumbnail; videos and audio get duration, size and a poster, and
 * recordings without a duration (MediaRecorder WebM) are remuxed so they seek.
 * Every blob written is listed in the returned upload, so a failed commit deletes it.
 */
export async function processStoredUpload(ctx: AppContext, target: UploadTarget, upload: StoredUpload): Promise<StoredUpload> {
  try {
    const processed = await processUploadedMedia(
      { blobs: ctx.blobs, config: ctx.config, logger: ctx.logger },
      { storageKey: upload.storageKey, filename: upload.filename, mimeType: upload.mimeType, size: upload.sizeBytes, sha256: upload.sha256 },
      { stripMetadata: target.stripMetadata, convertToWebp: target.convertToWebp, maxBytes: target.maxBytes },
    );
    return {
      ...upload,
      storageKey: processed.storageKey,
      filename: processed.filename,
      mimeType: processed.mimeType,
      sizeBytes: processed.size,
      sha256: processed.sha256,
      width: processed.width,
      height: processed.height,
      durationMs: processed.durationMs,
      metadataStripped: processed.metadataStripped,
      metadataWarning: processed.metadataWarning,
      variants: processed.variants.map((v) => ({
        variant: v.variant,
        storageKey: v.storage_key,
        mimeType: v.mime_type,
        sizeBytes: v.size_bytes,
        width: v.width,
        height: v.height,
      })),
    };
  } catch (error) {
    if (error instanceof MediaError) throw new ApiError(error.status, error.code as ApiErrorCode, error.message, error.details);
    throw error;
  }
}
