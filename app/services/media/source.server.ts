import { buffer } from "node:stream/consumers";
import type { BlobStore } from "../../../storage/blob-store";
import { MediaError, type ImageSource } from "~/services/media/images.server";

/**
 * Input for sharp or ffmpeg: the file itself on the disk store (no copy), the bytes from S3.
 * Uploads are capped by MAX_UPLOAD_MB, which bounds the buffer.
 */
export async function readSource(blobs: BlobStore, key: string): Promise<ImageSource> {
  if (blobs.localPath) return blobs.localPath(key);
  const blob = await blobs.get(key);
  if (!blob) throw new MediaError(400, "file_missing", "The stored file could not be read");
  return buffer(blob.stream);
}
