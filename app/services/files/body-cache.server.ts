import fsp from "node:fs/promises";
import { buffer } from "node:stream/consumers";
import { LRUCache } from "lru-cache";
import type { BlobStore } from "../../../storage/blob-store";

export interface FileBodyLimits {
  /** Files larger than this are streamed from the store, never kept. 0 turns the cache off. */
  maxFileBytes: number;
  /** All kept bodies together; the least recently served go first. */
  maxTotalBytes: number;
}

/** What a body is checked against: a kept body is only served for the record it was read for. */
export interface BodySource {
  storage_key: string;
  sha256: string;
  size_bytes: number;
}

interface KeptBody {
  storageKey: string;
  sha256: string;
  bytes: Buffer;
}

/**
 * Whole bodies of small files and variants, so a repeat request for a 10 KB file is one
 * `res.end(buffer)` instead of open + fstat + stream + close. An original is keyed by its /f/ path
 * like the record cache and dropped with it on delete; a variant by the path plus its name. A body
 * only matches the record (storage key and SHA-256) it was read for, so a file replaced at the
 * same path is never answered with old bytes, and it is only reached after the record lookup and
 * the private-file check, so a deleted or private file is never answered from here either.
 */
export class FileBodyCache {
  private readonly bodies: LRUCache<string, KeptBody> | null;
  private readonly loading = new Map<string, Promise<Buffer | null>>();

  constructor(readonly limits: FileBodyLimits) {
    this.bodies =
      limits.maxFileBytes > 0 && limits.maxTotalBytes > 0
        ? new LRUCache<string, KeptBody>({ maxSize: limits.maxTotalBytes, sizeCalculation: (body) => Math.max(1, body.bytes.length) })
        : null;
  }

  /** Whether a file of this size is kept in memory (else it is streamed). */
  keeps(size: number): boolean {
    return this.bodies !== null && size <= this.limits.maxFileBytes && size <= this.limits.maxTotalBytes;
  }

  /** The kept body of `file`, if any, without waiting. */
  peek(pathKey: string, file: BodySource): Buffer | undefined {
    const kept = this.bodies?.get(pathKey);
    return kept && kept.sha256 === file.sha256 && kept.storageKey === file.storage_key ? kept.bytes : undefined;
  }

  /**
   * The body of `file`, read once from the store and kept. Concurrent first requests share one
   * read. Null when the blob is missing or its size is not the record's (it changed underneath):
   * the caller then streams, as for a large file.
   */
  load(pathKey: string, file: BodySource, blobs: BlobStore): Promise<Buffer | null> {
    const kept = this.peek(pathKey, file);
    if (kept) return Promise.resolve(kept);
    const flightKey = `${pathKey}\n${file.sha256}`;
    let flight = this.loading.get(flightKey);
    if (!flight) {
      flight = readWhole(blobs, file.storage_key)
        .then((bytes) => {
          if (!bytes || bytes.length !== file.size_bytes) return null;
          this.bodies?.set(pathKey, { storageKey: file.storage_key, sha256: file.sha256, bytes });
          return bytes;
        })
        .finally(() => this.loading.delete(flightKey));
      this.loading.set(flightKey, flight);
    }
    return flight;
  }

  /** Keeps bytes the caller already has (a variant it just made), when their size allows. */
  keep(pathKey: string, file: BodySource, bytes: Buffer): void {
    if (this.keeps(bytes.length) && bytes.length === file.size_bytes) {
      this.bodies?.set(pathKey, { storageKey: file.storage_key, sha256: file.sha256, bytes });
    }
  }

  delete(pathKey: string): void {
    this.bodies?.delete(pathKey);
  }
}

async function readWhole(blobs: BlobStore, key: string): Promise<Buffer | null> {
  if (blobs.localPath) {
    try {
      return await fsp.readFile(blobs.localPath(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }
  const blob = await blobs.get(key);
  return blob ? buffer(blob.stream) : null;
}
