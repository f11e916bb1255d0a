import { randomBytes } from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
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

/** A private temporary directory for `work`, removed afterwards whatever happens. */
export async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "stash-media-"));
  try {
    return await work(dir);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** ffmpeg needs a path: the stored file itself on disk, or on S3 its bytes in a private temp file for the duration of `work`. */
export async function withLocalFile<T>(blobs: BlobStore, key: string, work: (file: string) => Promise<T>): Promise<T> {
  const source = await readSource(blobs, key);
  if (typeof source === "string") return work(source);
  return withTempDir(async (dir) => {
    const file = path.join(dir, `input-${randomBytes(6).toString("hex")}`);
    await fsp.writeFile(file, source, { mode: 0o600 });
    return work(file);
  });
}
