/**
 * Files from requests up to this size are read whole before they are stored (decision record 084): one
 * write and fsync instead of one per network chunk, and processing reads the bytes from memory instead
 * of the store. Screenshots and voice notes are all below it; larger requests stream, so memory per
 * request stays bounded.
 */
export const BUFFERED_UPLOAD_BYTES = 1024 * 1024;

/** Buffers kept for reuse once released: enough for the uploads of a busy instance at once (16 MiB). */
const KEPT_BUFFERS = 16;

/** An upload's bytes in a pooled buffer, until `release`. */
export interface HeldUpload {
  /** The bytes, a view of the pooled buffer: nothing may keep it past `release`. */
  bytes: Buffer;
  /** Returns the buffer to the pool; calling it again does nothing. */
  release(): void;
}

export interface UploadBufferStats {
  /** Buffers holding an upload now. */
  inUse: number;
  /** Released buffers waiting for the next upload. */
  kept: number;
  /** Buffers allocated since the process started. */
  made: number;
}

/**
 * Reusable buffers for uploads read whole (decision record 089). Held in the network chunks it arrived
 * in, a screenshot keeps ~600 KB of ArrayBuffers alive for its whole request. Under load a request
 * outlives several young-generation collections (it waits for an image slot), so its chunks are
 * promoted and count against the old generation's limit until a full collection frees them: at 8
 * clients that was a full collection every half second. Copied into a buffer that is reused and never
 * freed, the chunks die young and cost nothing; the copy costs ~0.05 ms.
 */
export class UploadBuffers {
  private readonly free: Buffer[] = [];
  private inUse = 0;
  private made = 0;

  constructor(
    readonly size: number,
    private readonly kept = KEPT_BUFFERS,
  ) {}

  /** `chunks` copied end to end into a pooled buffer (into one of their own, never pooled, when larger than the pool's). */
  hold(chunks: readonly Uint8Array[]): HeldUpload {
    let total = 0;
    for (const chunk of chunks) total += chunk.length;
    if (total > this.size) return { bytes: Buffer.concat(chunks, total), release: () => {} };
    const buffer = this.free.pop() ?? this.allocate();
    let offset = 0;
    for (const chunk of chunks) {
      buffer.set(chunk, offset);
      offset += chunk.length;
    }
    this.inUse++;
    let released = false;
    return {
      bytes: buffer.subarray(0, total),
      release: () => {
        if (released) return;
        released = true;
        this.inUse--;
        if (this.free.length < this.kept) this.free.push(buffer);
      },
    };
  }

  stats(): UploadBufferStats {
    return { inUse: this.inUse, kept: this.free.length, made: this.made };
  }

  private allocate(): Buffer {
    this.made++;
    // Outside Node's small-buffer pool: each is its own allocation, kept for the process's life.
    return Buffer.allocUnsafeSlow(this.size);
  }
}

/** The process's pool, shared by every upload route. */
export const uploadBuffers = new UploadBuffers(BUFFERED_UPLOAD_BYTES);
