import fsp from "node:fs/promises";
import { DomainError } from "~/services/platform/domain-error.server";
import { buffer } from "node:stream/consumers";
import type { BlobStore } from "../../../storage/blob-store";
import { type ImageSource } from "~/services/media/images.server";

/**
 * Input for sharp or ffmpeg: the file itself on the disk store (no copy), the bytes from S3.
 * Uploads are capped by MAX_UPLOAD_MB, which bounds the buffer.
 */
export async function readSource(blobs: BlobStore, key: string): Promise<ImageSource> {
  if (blobs.localPath) return blobs.localPath(key);
  const blob = await blobs.get(key);
  if (!blob) throw new DomainError("file_missing", "The stored file could not be read");
  return buffer(blob.stream);
}

/** The last `bytes` of a stored file of `size` bytes, without reading the rest (a file read or a ranged GET). */
export async function readTail(blobs: BlobStore, key: string, size: number, bytes: number): Promise<Buffer> {
  const start = Math.max(0, size - bytes);
  if (blobs.localPath) {
    const file = await fsp.open(blobs.localPath(key), "r");
    try {
      const tail = Buffer.alloc(size - start);
      const { bytesRead } = await file.read(tail, 0, tail.length, start);
      return tail.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }
  const blob = await blobs.get(key, { start, end: Math.max(start, size - 1) });
  if (!blob) throw new DomainError("file_missing", "The stored file could not be read");
  return buffer(blob.stream);
}
