import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlobTooLargeError, DiskBlobStore, InvalidBlobKeyError, S3BlobStore, type BlobStore } from "../../storage/index.ts";
import { startLocalS3, type LocalS3 } from "../helpers/s3rver.ts";

async function collect(store: BlobStore, prefix?: string) {
  const keys: string[] = [];
  for await (const blob of store.list(prefix)) keys.push(blob.key);
  return keys.sort();
}

/** A stream that sends `chunks` and then fails, like a client that disconnects mid-upload. */
function failingStream(chunks: Buffer[]) {
  let i = 0;
  return new Readable({
    read() {
      if (i < chunks.length) this.push(chunks[i++]);
      else this.destroy(new Error("client disconnected"));
    },
  });
}

let s3: LocalS3;
let diskRoot: string;

beforeAll(async () => {
  s3 = await startLocalS3();
  diskRoot = fs.mkdtempSync(path.join(os.tmpdir(), "stash-disk-"));
});

afterAll(async () => {
  await s3?.close();
  fs.rmSync(diskRoot, { recursive: true, force: true });
});

const adapters: Array<[string, () => BlobStore]> = [
  ["disk", () => new DiskBlobStore(path.join(diskRoot, randomBytes(4).toString("hex")))],
  [
    "s3 (s3rver)",
    () =>
      new S3BlobStore({
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: "us-east-1",
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        forcePathStyle: true,
      }),
  ],
];

describe.each(adapters)("BlobStore contract: %s", (_name, make) => {
  let store: BlobStore;
  const ns = () => `t${randomBytes(4).toString("hex")}`;

  beforeAll(() => {
    store = make();
  });

  it("stores a stream and reports its size and sha256", async () => {
    const body = randomBytes(200_000);
    const key = `${ns()}/photos/a.png`;
    const result = await store.put(key, Readable.from([body.subarray(0, 1000), body.subarray(1000)]));
    expect(result.size).toBe(body.length);
    expect(result.sha256).toBe(createHash("sha256").update(body).digest("hex"));
    const head = await store.head(key);
    expect(head?.size).toBe(body.length);
    const got = await store.get(key);
    expect(got).not.toBeNull();
    const chunks: Buffer[] = [];
    for await (const chunk of got!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
  });

  it("stores bytes held in memory, small and large, and reports their size and sha256", async () => {
    // A tiny file, one of a screenshot's size, and a view into a larger buffer (as an upload's pooled buffer is).
    for (const body of [randomBytes(1000), randomBytes(300_000), randomBytes(1024 * 1024).subarray(0, 250_001)]) {
      const key = `${ns()}/new-dir/held.bin`;
      const result = await store.put(key, body, { contentType: "application/octet-stream" });
      expect(result).toEqual({ size: body.length, sha256: createHash("sha256").update(body).digest("hex") });
      const got = await store.get(key);
      const chunks: Buffer[] = [];
      for await (const chunk of got!.stream) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(body)).toBe(true);
    }
  });

  it("refuses bytes in memory past maxBytes with BlobTooLargeError and stores nothing", async () => {
    const prefix = ns();
    const error = await store.put(`${prefix}/big.bin`, randomBytes(12_000), { maxBytes: 10_000 }).catch((e) => e);
    expect(error).toBeInstanceOf(BlobTooLargeError);
    expect(error.receivedBytes).toBe(12_000);
    expect(await collect(store, `${prefix}/`)).toEqual([]);
  });

  it("reads an inclusive byte range", async () => {
    const key = `${ns()}/range.txt`;
    await store.put(key, Readable.from([Buffer.from("0123456789")]));
    const got = await store.get(key, { start: 2, end: 5 });
    expect(await text(got!.stream)).toBe("2345");
    expect(got!.size).toBe(10);
  });

  it("returns null for a missing key and deletes idempotently", async () => {
    const key = `${ns()}/gone.bin`;
    expect(await store.get(key)).toBeNull();
    expect(await store.head(key)).toBeNull();
    await store.put(key, Readable.from([Buffer.from("x")]));
    await store.delete(key);
    await store.delete(key);
    expect(await store.head(key)).toBeNull();
  });

  it("lists keys under a prefix", async () => {
    const prefix = ns();
    await store.put(`${prefix}/a/1.bin`, Readable.from([Buffer.from("1")]));
    await store.put(`${prefix}/b/2.bin`, Readable.from([Buffer.from("22")]));
    expect(await collect(store, `${prefix}/`)).toEqual([`${prefix}/a/1.bin`, `${prefix}/b/2.bin`]);
  });

  it("leaves nothing behind when the stream fails midway", async () => {
    const prefix = ns();
    const key = `${prefix}/aborted.bin`;
    await expect(store.put(key, failingStream([randomBytes(64 * 1024), randomBytes(64 * 1024)]))).rejects.toThrow(
      "client disconnected",
    );
    expect(await store.head(key)).toBeNull();
    expect(await collect(store, `${prefix}/`)).toEqual([]);
  });

  it("stops at maxBytes with BlobTooLargeError and stores nothing", async () => {
    const key = `${ns()}/big.bin`;
    const error = await store.put(key, Readable.from([randomBytes(6000), randomBytes(6000)]), { maxBytes: 10_000 }).catch((e) => e);
    expect(error).toBeInstanceOf(BlobTooLargeError);
    expect(await store.head(key)).toBeNull();
  });

  it("replaces an object atomically: readers see the old bytes or the new, never a mix", async () => {
    const key = `${ns()}/swap.bin`;
    await store.put(key, Readable.from([Buffer.alloc(50_000, 1)]));
    const writing = store.put(key, Readable.from([Buffer.alloc(50_000, 2)]));
    const got = await store.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of got!.stream) chunks.push(chunk as Buffer);
    const seen = Buffer.concat(chunks);
    expect(seen.length).toBe(50_000);
    expect(seen.every((b) => b === seen[0])).toBe(true);
    await writing;
  });

  it("rejects keys that could escape the store", async () => {
    for (const key of ["../etc/passwd", "a/../../b", "/abs", "a//b", "", "a/./b", ".hidden/../x", "a\\b"]) {
      await expect(store.put(key, Readable.from([Buffer.from("x")]))).rejects.toBeInstanceOf(InvalidBlobKeyError);
    }
  });

  it("passes its health check", async () => {
    await expect(store.check()).resolves.toBeUndefined();
  });
});

describe("DiskBlobStore specifics", () => {
  it("sweeps temp files left by a crash, and lists none of them", async () => {
    const root = path.join(diskRoot, "sweep");
    const store = new DiskBlobStore(root);
    const leftover = path.join(root, ".tmp", "crashed-upload");
    fs.writeFileSync(leftover, "partial");
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(leftover, old, old);
    expect(await collect(store)).toEqual([]);
    expect(await store.sweepIncomplete(60_000)).toBe(1);
    expect(fs.existsSync(leftover)).toBe(false);
  });

  it("makes a key's folder when it is missing, also after the folder was removed, and leaves no temp file", async () => {
    const root = path.join(diskRoot, "folders");
    const store = new DiskBlobStore(root);
    await store.put("srv/photos/1.bin", Buffer.from("one"));
    fs.rmSync(path.join(root, "srv"), { recursive: true });
    await store.put("srv/photos/2.bin", Buffer.from("two"));
    await store.put("srv/photos/3.bin", Readable.from([Buffer.from("three")]));
    expect(await collect(store)).toEqual(["srv/photos/2.bin", "srv/photos/3.bin"]);
    expect(fs.statSync(path.join(root, "srv/photos/2.bin")).mode & 0o777).toBe(0o640);
    expect(fs.readdirSync(path.join(root, ".tmp"))).toEqual([]);
  });

  it("keeps a file's bytes inside its root", () => {
    const store = new DiskBlobStore(path.join(diskRoot, "paths"));
    expect(store.localPath("srv/cat/file.png").startsWith(path.join(diskRoot, "paths") + path.sep)).toBe(true);
    expect(() => store.localPath("../x")).toThrow(InvalidBlobKeyError);
  });
});
