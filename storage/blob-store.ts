import { createHash, webcrypto } from "node:crypto";
import { Transform, type Readable, type TransformCallback } from "node:stream";

export interface BlobInfo {
  size: number;
  lastModified: Date;
}

export interface PutResult {
  size: number;
  sha256: string;
}

/** What `put` stores: bytes already in memory (one write), or a stream of them. */
export type BlobBody = Buffer | Readable | AsyncIterable<Uint8Array>;

export interface PutOptions {
  contentType?: string;
  /** Abort with BlobTooLargeError, storing nothing, once the stream passes this many bytes. */
  maxBytes?: number;
}

export interface ByteRange {
  start: number;
  /** Inclusive, as in an HTTP Range header. */
  end: number;
}

export interface BlobStream extends BlobInfo {
  stream: Readable;
}

export interface ListedBlob extends BlobInfo {
  key: string;
}

/**
 * Where file bytes live. Keys are relative paths of `[A-Za-z0-9._-]` segments.
 * `put` is atomic: a reader sees the whole object or nothing, and a failed or aborted
 * stream leaves nothing behind.
 */
export interface BlobStore {
  readonly kind: "disk" | "s3";
  put(key: string, body: BlobBody, options?: PutOptions): Promise<PutResult>;
  get(key: string, range?: ByteRange): Promise<BlobStream | null>;
  head(key: string): Promise<BlobInfo | null>;
  delete(key: string): Promise<void>;
  list(prefix?: string): AsyncIterable<ListedBlob>;
  /** Throws when the store cannot be written and read back (health checks). */
  check(): Promise<void>;
  /** Removes leftovers of interrupted writes older than `olderThanMs`; returns how many. */
  sweepIncomplete(olderThanMs: number): Promise<number>;
  /** The file on disk for a key, for zero-copy serving; only the disk store has one. */
  localPath?(key: string): string;
}

export class BlobTooLargeError extends Error {
  constructor(
    readonly limitBytes: number,
    readonly receivedBytes: number,
  ) {
    super(`Blob exceeds ${limitBytes} bytes`);
    this.name = "BlobTooLargeError";
  }
}

export class InvalidBlobKeyError extends Error {
  constructor(key: string) {
    super(`Invalid blob key: ${JSON.stringify(key)}`);
    this.name = "InvalidBlobKeyError";
  }
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

export function assertValidKey(key: string): void {
  const segments = key.split("/");
  const valid =
    key.length > 0 &&
    key.length <= 1024 &&
    segments.every((s) => SEGMENT.test(s) && s !== "." && s !== "..");
  if (!valid) throw new InvalidBlobKeyError(key);
}

/** Below this, hashing on the event loop costs less than handing the bytes to the thread pool. */
const INLINE_HASH_BYTES = 64 * 1024;

/**
 * The SHA-256 (hex) of bytes in memory. Larger buffers are hashed by WebCrypto, which runs on the
 * libuv thread pool: a 600 KB screenshot's hash (~0.5 ms) then leaves the event loop free for other requests.
 */
async function sha256OfBytes(data: Uint8Array): Promise<string> {
  if (data.length < INLINE_HASH_BYTES) return createHash("sha256").update(data).digest("hex");
  return Buffer.from(await webcrypto.subtle.digest("SHA-256", data)).toString("hex");
}

/**
 * A put of bytes in memory, for either store: refuses them past `maxBytes` (as MeasuringStream refuses a
 * stream) before `write` runs, then hashes them while `write` stores them.
 */
export async function putBytes(data: Buffer, maxBytes: number | undefined, write: () => Promise<unknown>): Promise<PutResult> {
  if (maxBytes !== undefined && data.length > maxBytes) throw new BlobTooLargeError(maxBytes, data.length);
  const [sha256] = await Promise.all([sha256OfBytes(data), write()]);
  return { size: data.length, sha256 };
}

/** Counts and hashes bytes as they pass, and stops the stream past `maxBytes`. */
export class MeasuringStream extends Transform {
  readonly hash = createHash("sha256");
  size = 0;

  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(new BlobTooLargeError(this.maxBytes, this.size));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  result(): PutResult {
    return { size: this.size, sha256: this.hash.digest("hex") };
  }
}
