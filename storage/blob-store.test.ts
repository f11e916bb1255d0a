import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { assertValidKey, BlobTooLargeError, InvalidBlobKeyError, MeasuringStream, putBytes } from "./blob-store.ts";

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");

describe("assertValidKey", () => {
  it("takes relative paths of safe segments up to 1024 characters", () => {
    for (const key of ["a", "srv1/mugshots/x1.png", "srv1/mugshots/x1.png.variants/w320_h0_inside_q80.webp", "_x/-y/z.", "a".repeat(200), `${"a".repeat(200)}/`.repeat(5) + "a".repeat(19)]) {
      expect(() => assertValidKey(key), key).not.toThrow();
    }
  });

  it("refuses anything that could leave the store or confuse a file system", () => {
    for (const key of ["", "/abs", "a//b", "a/", "../x", "a/../b", "./a", "a/.", ".hidden", "a b", "a\\b", "a\u0000b", "ż", "a".repeat(201), `${"a".repeat(200)}/`.repeat(5) + "a".repeat(20)]) {
      expect(() => assertValidKey(key), JSON.stringify(key)).toThrow(InvalidBlobKeyError);
    }
  });
});

describe("putBytes", () => {
  it("writes and hashes bytes in memory", async () => {
    const data = Buffer.from("evidence");
    let wrote = false;
    expect(await putBytes(data, 100, async () => void (wrote = true))).toEqual({ size: 8, sha256: sha(data) });
    expect(wrote).toBe(true);
    expect(await putBytes(Buffer.alloc(0), undefined, async () => {})).toEqual({ size: 0, sha256: sha(Buffer.alloc(0)) });
  });

  it("refuses bytes past the limit before writing anything, and passes a failed write on", async () => {
    let wrote = false;
    const refusal = putBytes(Buffer.alloc(101), 100, async () => void (wrote = true));
    await expect(refusal).rejects.toBeInstanceOf(BlobTooLargeError);
    await expect(refusal).rejects.toMatchObject({ limitBytes: 100, receivedBytes: 101 });
    expect(wrote).toBe(false);
    expect((await putBytes(Buffer.alloc(100), 100, async () => {})).size).toBe(100);
    await expect(putBytes(Buffer.alloc(1), 10, () => Promise.reject(new Error("disk gone")))).rejects.toThrow("disk gone");
  });
});

describe("MeasuringStream", () => {
  async function measure(chunks: Buffer[], maxBytes?: number) {
    const measuring = new MeasuringStream(maxBytes);
    const received: Buffer[] = [];
    await pipeline(Readable.from(chunks), measuring, new Writable({ write: (chunk, _encoding, done) => void (received.push(chunk), done()) }));
    return { result: measuring.result(), passed: Buffer.concat(received) };
  }

  it("passes bytes through unchanged while counting and hashing them", async () => {
    const chunks = [Buffer.from("ab"), Buffer.from(""), Buffer.from("cdé")];
    const { result, passed } = await measure(chunks);
    expect(passed).toEqual(Buffer.concat(chunks));
    expect(result).toEqual({ size: 6, sha256: sha(Buffer.concat(chunks)) });
  });

  it("takes exactly the limit and stops the stream one byte past it", async () => {
    expect((await measure([Buffer.alloc(5), Buffer.alloc(5)], 10)).result.size).toBe(10);
    await expect(measure([Buffer.alloc(5), Buffer.alloc(6)], 10)).rejects.toMatchObject({ name: "BlobTooLargeError", limitBytes: 10, receivedBytes: 11 });
  });
});
