import fs from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileRecord } from "../../db/schema.ts";
import { loadConfig, ConfigError } from "../../app/services/platform/env.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { filePath, seedFile } from "../helpers/files.ts";
import { gameScreenshot } from "../helpers/images.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/**
 * /f/ keeps small bodies in memory (FILE_MEMORY_CACHE_MB, FILE_MEMORY_CACHE_MAX_FILE_KB). Whether
 * an answer came from memory shows from outside when the bytes on disk change behind Stash's back:
 * a kept body does not change, a streamed one does.
 */

const asOwner = (account: SeededAccount) => ({ userId: account.userId, teamId: account.teamId, serverId: account.serverId });

/** Rewrites a stored file in place with bytes of the same length (the record stays valid). */
function scribble(server: TestServer, file: FileRecord, bytes: Buffer) {
  fs.writeFileSync(path.join(server.dataDir, "files", file.storage_key), bytes);
}

/** A file at a path of our choosing, so a second upload can take the path of a deleted one. */
async function seedAt(server: TestServer, account: SeededAccount, filename: string, bytes: Buffer): Promise<FileRecord> {
  const storageKey = `${account.serverId}/screenshots/${filename}`;
  const put = await server.ctx.blobs.put(storageKey, Readable.from([bytes]));
  return server.ctx.db
    .insertInto("files")
    .values({
      server_id: account.serverId,
      team_id: account.teamId,
      storage_key: storageKey,
      filename,
      original_filename: filename,
      category: "screenshots",
      mime_type: "text/plain",
      size_bytes: put.size,
      sha256: put.sha256,
      is_public: true,
      metadata: "{}",
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

describe("small files kept in memory (defaults)", () => {
  let server: TestServer;
  let owner: SeededAccount;
  let stranger: SeededAccount;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await seedAccount(server.ctx, { permissions: ["upload", "read", "delete"] });
    stranger = await seedAccount(server.ctx);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers repeats from memory with the same headers, ranges, HEAD and 304", async () => {
    const bytes = Buffer.from("kept in memory ".repeat(40));
    const file = await seedFile(server, asOwner(owner), { bytes, mimeType: "text/plain", extension: "txt" });
    const first = await server.request(filePath(file));
    expect(Buffer.from(await first.arrayBuffer()).equals(bytes)).toBe(true);

    scribble(server, file, Buffer.alloc(bytes.length, "x"));
    const again = await server.request(filePath(file));
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    for (const name of ["content-type", "content-length", "etag", "last-modified", "cache-control", "content-disposition", "accept-ranges"]) {
      expect(again.headers.get(name), name).toBe(first.headers.get(name));
    }
    expect(again.headers.get("x-content-type-options")).toBe("nosniff");
    expect(again.headers.get("content-security-policy")).toBe("sandbox");
    expect(again.headers.get("access-control-allow-origin")).toBe("*");
    expect(again.headers.get("x-request-id")).toMatch(/[0-9a-f-]{36}/);

    const part = await server.request(filePath(file), { headers: { Range: "bytes=5-13" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-length")).toBe("9");
    expect(part.headers.get("content-range")).toBe(`bytes 5-13/${bytes.length}`);
    expect(await part.text()).toBe("in memory");
    const beyond = await server.request(filePath(file), { headers: { Range: `bytes=${bytes.length}-` } });
    expect(beyond.status).toBe(416);
    await beyond.arrayBuffer();
    const head = await server.request(filePath(file), { method: "HEAD" });
    expect(head.headers.get("content-length")).toBe(String(bytes.length));
    expect(await head.text()).toBe("");
    const fresh = await server.request(filePath(file), { headers: { "If-None-Match": `"${file.sha256}"` } });
    expect(fresh.status).toBe(304);
  });

  it("answers plain GET, HEAD and revalidation from memory exactly as the full path does", async () => {
    const bytes = Buffer.from("answered from memory ".repeat(30));
    const file = await seedFile(server, asOwner(owner), { bytes, mimeType: "image/png", extension: "png" });
    const etag = `"${file.sha256}"`;
    // A query the file path ignores sends a request through the full path; without one, a kept file is answered from memory.
    const full = `${filePath(file)}?v=1`;
    await (await server.request(filePath(file))).arrayBuffer();
    const headersOf = (res: Response) => [...res.headers].filter(([name]) => name !== "date" && name !== "x-request-id");
    const shapes: { name: string; init: RequestInit; status: number }[] = [
      { name: "GET", init: {}, status: 200 },
      { name: "HEAD", init: { method: "HEAD" }, status: 200 },
      { name: "revalidation", init: { headers: { "If-None-Match": `W/"other", ${etag}` } }, status: 304 },
      { name: "stale ETag", init: { headers: { "If-None-Match": '"other"' } }, status: 200 },
      { name: "Last-Modified revalidation", init: { headers: { "If-Modified-Since": new Date(Date.now() + 60_000).toUTCString() } }, status: 304 },
    ];
    for (const shape of shapes) {
      const fromMemory = await server.request(filePath(file), shape.init);
      const fromFullPath = await server.request(full, shape.init);
      expect([fromMemory.status, fromFullPath.status], shape.name).toEqual([shape.status, shape.status]);
      expect(headersOf(fromMemory), shape.name).toEqual(headersOf(fromFullPath));
      expect(Buffer.from(await fromMemory.arrayBuffer()).equals(Buffer.from(await fromFullPath.arrayBuffer())), shape.name).toBe(true);
      expect(fromMemory.headers.get("x-request-id"), shape.name).toMatch(/[0-9a-f-]{36}/);
    }
  });

  it("serves the new bytes right after a delete and a new file at the same path", async () => {
    const filename = `${randomBytes(8).toString("hex")}.txt`;
    const old = await seedAt(server, owner, filename, Buffer.from("the old screenshot"));
    expect(await (await server.request(filePath(old))).text()).toBe("the old screenshot");

    const deleted = await server.request(`/api/files/${old.id}`, { method: "DELETE", headers: { "x-api-key": owner.key } });
    expect(deleted.status).toBe(200);
    await deleted.arrayBuffer();
    const gone = await server.request(filePath(old));
    expect(gone.status).toBe(404);
    await gone.arrayBuffer();

    const replacement = await seedAt(server, owner, filename, Buffer.from("the new screenshot"));
    const res = await server.request(filePath(replacement));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("the new screenshot");
    expect(res.headers.get("etag")).toBe(`"${replacement.sha256}"`);
  });

  it("stops answering a deleted image's kept variants at once", async () => {
    const image = await seedFile(server, asOwner(owner), { bytes: await gameScreenshot(400, 225, 5), mimeType: "image/png", extension: "png" });
    const variant = `${filePath(image)}?w=100&format=webp`;
    const first = await server.request(variant);
    const again = await server.request(variant);
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(await first.arrayBuffer()))).toBe(true);

    const deleted = await server.request(`/api/files/${image.id}`, { method: "DELETE", headers: { "x-api-key": owner.key } });
    expect(deleted.status).toBe(200);
    await deleted.arrayBuffer();
    for (const url of [variant, filePath(image)]) {
      const res = await server.request(url);
      expect(res.status, url).toBe(404);
      await res.arrayBuffer();
    }
  });

  it("never answers a kept private file without its server's key", async () => {
    const file = await seedFile(server, asOwner(owner), { bytes: Buffer.from("private and kept"), mimeType: "text/plain", extension: "txt", isPublic: false });
    const keyed = await server.request(filePath(file), { headers: { "x-api-key": owner.key } });
    expect(await keyed.text()).toBe("private and kept");
    expect(keyed.headers.get("cache-control")).toBe("private, no-cache");

    const anonymous = await server.request(filePath(file));
    expect(anonymous.status).toBe(404);
    expect(await anonymous.json()).toMatchObject({ success: false, code: "not_found" });
    const foreign = await server.request(filePath(file), { headers: { "x-api-key": stranger.key } });
    expect(foreign.status).toBe(404);
    await foreign.arrayBuffer();
    const again = await server.request(`${filePath(file)}?apiKey=${owner.key}`);
    expect(await again.text()).toBe("private and kept");
  });

  it("counts downloads of kept bodies like streamed ones", async () => {
    const fresh = await seedAccount(server.ctx);
    const file = await seedFile(server, asOwner(fresh), { bytes: randomBytes(500), mimeType: "application/octet-stream", extension: "bin" });
    for (let i = 0; i < 3; i++) await (await server.request(filePath(file))).arrayBuffer();
    await (await server.request(filePath(file), { headers: { Range: "bytes=0-49" } })).arrayBuffer();
    await server.flushUsage();
    const row = await server.ctx.db.selectFrom("usage_daily").selectAll().where("server_id", "=", fresh.serverId).executeTakeFirstOrThrow();
    expect(row.downloads).toBe(4);
    expect(Number(row.download_bytes)).toBe(1550);
  });

  it("counts /f/ requests in the metrics", async () => {
    const file = await seedFile(server, asOwner(owner), { bytes: Buffer.from("metered"), mimeType: "text/plain", extension: "txt" });
    await (await server.request(filePath(file))).arrayBuffer();
    const metrics = await (await server.request("/metrics")).text();
    expect(metrics).toMatch(/stash_http_requests_total\{method="GET",route="\/f\/\*",status="200"\} \d+/);
    expect(metrics).toMatch(/stash_http_request_duration_seconds_count\{method="GET",route="\/f\/\*"\} \d+/);
  });
});

describe("files over FILE_MEMORY_CACHE_MAX_FILE_KB", () => {
  let server: TestServer;
  let owner: SeededAccount;

  beforeAll(async () => {
    server = await startTestServer({ FILE_MEMORY_CACHE_MAX_FILE_KB: "1" });
    owner = await seedAccount(server.ctx);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("are streamed from the store on every request, with ranges", async () => {
    const bytes = Buffer.from("0123456789".repeat(300));
    const file = await seedFile(server, asOwner(owner), { bytes, mimeType: "text/plain", extension: "txt" });
    expect(Buffer.from(await (await server.request(filePath(file))).arrayBuffer()).equals(bytes)).toBe(true);

    const changed = Buffer.from("abcdefghij".repeat(300));
    scribble(server, file, changed);
    expect(Buffer.from(await (await server.request(filePath(file))).arrayBuffer()).equals(changed)).toBe(true);
    const part = await server.request(filePath(file), { headers: { Range: "bytes=2990-" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 2990-2999/3000");
    expect(await part.text()).toBe("abcdefghij");
  });

  it("while smaller ones are still kept", async () => {
    const file = await seedFile(server, asOwner(owner), { bytes: Buffer.from("tiny"), mimeType: "text/plain", extension: "txt" });
    expect(await (await server.request(filePath(file))).text()).toBe("tiny");
    scribble(server, file, Buffer.from("TINY"));
    expect(await (await server.request(filePath(file))).text()).toBe("tiny");
  });
});

describe("FILE_MEMORY_CACHE_MB=0", () => {
  let server: TestServer;
  let owner: SeededAccount;

  beforeAll(async () => {
    server = await startTestServer({ FILE_MEMORY_CACHE_MB: "0" });
    owner = await seedAccount(server.ctx);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("turns the memory copy off: every request reads the store", async () => {
    const file = await seedFile(server, asOwner(owner), { bytes: Buffer.from("streamed"), mimeType: "text/plain", extension: "txt" });
    expect(await (await server.request(filePath(file))).text()).toBe("streamed");
    scribble(server, file, Buffer.from("STREAMED"));
    expect(await (await server.request(filePath(file))).text()).toBe("STREAMED");
  });
});

describe("memory cache configuration", () => {
  it("takes whole non-negative numbers and names the variable otherwise", () => {
    const config = loadConfig({ FILE_MEMORY_CACHE_MB: "128", FILE_MEMORY_CACHE_MAX_FILE_KB: "512" });
    expect(config.FILE_MEMORY_CACHE_MB).toBe(128);
    expect(config.FILE_MEMORY_CACHE_MAX_FILE_KB).toBe(512);
    expect(loadConfig({}).FILE_MEMORY_CACHE_MB).toBe(64);
    expect(loadConfig({}).FILE_MEMORY_CACHE_MAX_FILE_KB).toBe(256);
    for (const [name, value] of [
      ["FILE_MEMORY_CACHE_MB", "-1"],
      ["FILE_MEMORY_CACHE_MB", "lots"],
      ["FILE_MEMORY_CACHE_MAX_FILE_KB", "1.5"],
    ]) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        expect((error as ConfigError).problems.join("\n")).toMatch(new RegExp(`^${name}: `, "m"));
      }
    }
  });
});
