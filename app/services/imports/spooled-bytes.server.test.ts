import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SourceTooLargeError, spoolBytes } from "~/services/imports/spooled-bytes.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-spool-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function* chunks(total: number, size: number) {
  for (let sent = 0; sent < total; sent += size) yield new Uint8Array(Math.min(size, total - sent)).fill(sent % 251);
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of source) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

describe("spoolBytes", () => {
  it("holds a small file in memory and hashes it", async () => {
    const spooled = await spoolBytes(chunks(300_000, 64 * 1024), 10_000_000, dir);
    const bytes = await collect(spooled.body());
    expect(spooled.size).toBe(300_000);
    expect(spooled.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("spills a file past 1 MiB to a temporary file, reads it back whole, and removes it when disposed", async () => {
    const spooled = await spoolBytes(chunks(3_000_000, 64 * 1024), 10_000_000, dir);
    expect(fs.readdirSync(dir)).toHaveLength(1);
    const bytes = await collect(spooled.body());
    expect(bytes.length).toBe(3_000_000);
    expect(spooled.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    await spooled.dispose();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("refuses past the cap and leaves no temporary file", async () => {
    await expect(spoolBytes(chunks(3_000_000, 64 * 1024), 2_000_000, dir)).rejects.toBeInstanceOf(SourceTooLargeError);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
