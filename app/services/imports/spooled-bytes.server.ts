import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { createReadStream } from "node:fs";
import path from "node:path";

/** Files up to this size are held in memory; larger ones spill to a temporary file as they arrive. */
const IN_MEMORY_BYTES = 1024 * 1024;

export class SourceTooLargeError extends Error {
  constructor(readonly receivedBytes: number) {
    super(`more than the size cap (${receivedBytes} bytes received)`);
    this.name = "SourceTooLargeError";
  }
}

/**
 * One imported file's bytes, read once from their source and hashed on the way, so an import knows
 * whether the team already holds them before anything is stored — and can hand them to the upload
 * pipeline afterwards without fetching twice.
 */
export interface SpooledBytes {
  size: number;
  sha256: string;
  body(): AsyncIterable<Uint8Array>;
  dispose(): Promise<void>;
}

async function* once(bytes: Buffer): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** Reads `source` whole (refusing past `maxBytes`), in memory or, past 1 MiB, in a file under `tmpDir`. */
export async function spoolBytes(source: AsyncIterable<Uint8Array>, maxBytes: number, tmpDir: string): Promise<SpooledBytes> {
  const hash = createHash("sha256");
  const held: Buffer[] = [];
  let size = 0;
  let file: { path: string; handle: fs.promises.FileHandle } | null = null;
  const discard = async () => {
    if (!file) return;
    await file.handle.close().catch(() => undefined);
    await fs.promises.rm(file.path, { force: true });
  };
  try {
    for await (const chunk of source) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      size += bytes.length;
      if (size > maxBytes) throw new SourceTooLargeError(size);
      hash.update(bytes);
      if (!file && size > IN_MEMORY_BYTES) {
        await fs.promises.mkdir(tmpDir, { recursive: true });
        const tmp = path.join(tmpDir, `spool-${randomBytes(8).toString("hex")}`);
        file = { path: tmp, handle: await fs.promises.open(tmp, "w") };
        for (const part of held) await file.handle.write(part);
        held.length = 0;
      }
      if (file) await file.handle.write(bytes);
      else held.push(Buffer.from(bytes));
    }
    if (file) await file.handle.close();
  } catch (error) {
    await discard();
    throw error;
  }
  const sha256 = hash.digest("hex");
  if (!file) {
    const bytes = held.length === 1 ? held[0]! : Buffer.concat(held);
    return { size, sha256, body: () => once(bytes), dispose: async () => undefined };
  }
  const spilled = file.path;
  return {
    size,
    sha256,
    body: () => createReadStream(spilled),
    dispose: () => fs.promises.rm(spilled, { force: true }),
  };
}
