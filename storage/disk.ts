import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  assertValidKey,
  MeasuringStream,
  putBytes,
  type BlobBody,
  type BlobInfo,
  type BlobStore,
  type BlobStream,
  type ByteRange,
  type ListedBlob,
  type PutOptions,
  type PutResult,
} from "./blob-store.ts";

const TEMP_DIR = ".tmp";
/**
 * Read size for sending files (streams here, and the /f/ sender). 256 KiB reads cost a third less
 * CPU per MiB sent than the 64 KiB default (fewer reads and socket writes); a slow client holds at
 * most about twice this.
 */
export const READ_CHUNK_BYTES = 256 * 1024;

const openForRead = (file: string) =>
  new Promise<number>((resolve, reject) => fs.open(file, "r", (error, fd) => (error ? reject(error) : resolve(fd))));
const fstat = (fd: number) => new Promise<fs.Stats>((resolve, reject) => fs.fstat(fd, (error, stat) => (error ? reject(error) : resolve(stat))));

/** File mode of stored blobs: the server's user reads and writes, its group reads. */
const BLOB_MODE = 0o640;

/** A stream, counted, hashed and size-checked as it passes, fsynced before its descriptor closes (`flush`). */
async function writeStream(temp: string, body: Readable | AsyncIterable<Uint8Array>, maxBytes?: number): Promise<PutResult> {
  const measure = new MeasuringStream(maxBytes);
  const source = body instanceof Readable ? body : Readable.from(body);
  await pipeline(source, measure, fs.createWriteStream(temp, { flags: "wx", mode: BLOB_MODE, flush: true }));
  return measure.result();
}

/** Bytes in memory with one write and its fsync. */
async function writeHeld(temp: string, body: Buffer): Promise<void> {
  const handle = await fsp.open(temp, "wx", BLOB_MODE);
  try {
    const { bytesWritten } = await handle.write(body);
    // A short write means the volume is filling up: the rest goes through writeFile, which reports ENOSPC.
    if (bytesWritten < body.length) await handle.writeFile(body.subarray(bytesWritten));
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Renames a finished temp file to its key. The key's directory nearly always exists (a server's
 * category folder), so it is made only when the rename says it is missing: one call per upload, not two.
 */
async function moveIntoPlace(temp: string, target: string): Promise<void> {
  try {
    await fsp.rename(temp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(temp, target);
  }
}

/** Blobs as files under one root: temp file, fsync, then rename, so readers never see a partial file. */
export class DiskBlobStore implements BlobStore {
  readonly kind = "disk" as const;
  private readonly root: string;
  private readonly tempRoot: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.tempRoot = path.join(this.root, TEMP_DIR);
    fs.mkdirSync(this.tempRoot, { recursive: true });
  }

  localPath(key: string): string {
    assertValidKey(key);
    const full = path.resolve(this.root, key);
    // Validation already forbids "..", this is the belt to its braces.
    if (!full.startsWith(this.root + path.sep) || full.startsWith(this.tempRoot + path.sep)) {
      throw new Error(`Key escapes the store: ${key}`);
    }
    return full;
  }

  async put(key: string, body: BlobBody, options: PutOptions = {}): Promise<PutResult> {
    const target = this.localPath(key);
    const temp = path.join(this.tempRoot, `${Date.now()}-${randomBytes(8).toString("hex")}`);
    try {
      const result = Buffer.isBuffer(body) ? await putBytes(body, options.maxBytes, () => writeHeld(temp, body)) : await writeStream(temp, body, options.maxBytes);
      await moveIntoPlace(temp, target);
      return result;
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<BlobStream | null> {
    const opened = await this.open(key);
    if (!opened) return null;
    const stream = fs.createReadStream(this.localPath(key), { fd: opened.fd, highWaterMark: READ_CHUNK_BYTES, ...(range ? { start: range.start, end: range.end } : {}) });
    return { size: opened.size, lastModified: opened.lastModified, stream };
  }

  /** The blob's descriptor and size, for a sender that reads it itself; the caller closes `fd`. */
  async open(key: string): Promise<(BlobInfo & { fd: number }) | null> {
    const file = this.localPath(key);
    let fd: number;
    try {
      // A plain descriptor, not a FileHandle: fs streams over a FileHandle go through the promise
      // API for every read, which costs measurably more CPU per request (decision record 034).
      fd = await openForRead(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
    let stat: fs.Stats;
    try {
      stat = await fstat(fd);
    } catch (error) {
      fs.close(fd, () => {});
      throw error;
    }
    return { size: stat.size, lastModified: stat.mtime, fd };
  }

  async head(key: string): Promise<BlobInfo | null> {
    try {
      const stat = await fsp.stat(this.localPath(key));
      return { size: stat.size, lastModified: stat.mtime };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.localPath(key), { force: true });
  }

  async *list(prefix = ""): AsyncIterable<ListedBlob> {
    const walk = async function* (dir: string, root: string, tempRoot: string): AsyncGenerator<ListedBlob> {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (full === tempRoot) continue;
        if (entry.isDirectory()) {
          yield* walk(full, root, tempRoot);
        } else if (entry.isFile()) {
          // A file deleted between readdir and stat (an upload discarded meanwhile) is simply gone.
          const stat = await fsp.stat(full).catch((error: NodeJS.ErrnoException) => {
            if (error.code === "ENOENT") return null;
            throw error;
          });
          if (!stat) continue;
          yield { key: path.relative(root, full).split(path.sep).join("/"), size: stat.size, lastModified: stat.mtime };
        }
      }
    };
    for await (const blob of walk(this.root, this.root, this.tempRoot)) {
      if (blob.key.startsWith(prefix)) yield blob;
    }
  }

  async check(): Promise<void> {
    const probe = path.join(this.tempRoot, `health-${randomBytes(6).toString("hex")}`);
    await fsp.writeFile(probe, "ok");
    await fsp.rm(probe, { force: true });
  }

  async sweepIncomplete(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of await fsp.readdir(this.tempRoot)) {
      const full = path.join(this.tempRoot, name);
      const stat = await fsp.stat(full).catch(() => null);
      if (stat && stat.mtimeMs < cutoff) {
        await fsp.rm(full, { force: true, recursive: true });
        removed++;
      }
    }
    return removed;
  }
}
