import { randomBytes } from "node:crypto";
import http from "node:http";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import type { FileRecord } from "../../db/schema.ts";
import { filePath, seedFile, seedOwner, type SeedOwner } from "../helpers/files.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let owner: SeedOwner;
let text: FileRecord;
const textBytes = Buffer.from("0123456789abcdefghijklmnopqrstuvwxyz".repeat(30));

test.beforeAll(async ({ server: started }) => {
  server = started;
  owner = await seedOwner(server);
  text = await seedFile(server, owner, { bytes: textBytes, mimeType: "text/plain", extension: "txt", originalFilename: "notes.txt" });
});

describe("/f/ public files", () => {
  it("serves the bytes with immutable caching, validators and the file safety headers", async () => {
    const res = await server.request(filePath(text));
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(textBytes);
    expect(res.headers.get("content-type")).toBe("text/plain");
    expect(res.headers.get("content-length")).toBe(String(textBytes.length));
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("etag")).toBe(`"${text.sha256}"`);
    expect(res.headers.get("last-modified")).toBe(new Date(text.created_at).toUTCString());
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("sandbox");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-encoding")).toBeNull();
  });

  it("answers If-None-Match with 304 and no body", async () => {
    const res = await server.request(filePath(text), { headers: { "If-None-Match": `"${text.sha256}"` } });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe("");
    expect(res.headers.get("etag")).toBe(`"${text.sha256}"`);
    const stale = await server.request(filePath(text), { headers: { "If-None-Match": '"something-else"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  it("answers byte ranges with 206 and an unsatisfiable one with 416", async () => {
    const first = await server.request(filePath(text), { headers: { Range: "bytes=0-9" } });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-9/${textBytes.length}`);
    expect(await first.text()).toBe("0123456789");

    const suffix = await server.request(filePath(text), { headers: { Range: "bytes=-6" } });
    expect(suffix.status).toBe(206);
    expect(await suffix.text()).toBe("uvwxyz");

    const open = await server.request(filePath(text), { headers: { Range: `bytes=${textBytes.length - 3}-` } });
    expect(open.status).toBe(206);
    expect(await open.text()).toBe("xyz");

    const beyond = await server.request(filePath(text), { headers: { Range: `bytes=${textBytes.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${textBytes.length}`);
    expect(await beyond.json()).toMatchObject({ success: false, code: "range_not_satisfiable" });

    const stale = await server.request(filePath(text), { headers: { Range: "bytes=0-9", "If-Range": '"old"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const res = await server.request(filePath(text), { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(textBytes.length));
    expect(res.headers.get("etag")).toBe(`"${text.sha256}"`);
    expect(await res.text()).toBe("");
  });

  it("serves HTML and SVG only as attachments, images inline", async () => {
    const html = await seedFile(server, owner, {
      bytes: Buffer.from("<script>alert(document.cookie)</script>"),
      mimeType: "text/html",
      extension: "html",
      originalFilename: "évidence report.html",
    });
    const svg = await seedFile(server, owner, {
      bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      mimeType: "image/svg+xml",
      extension: "svg",
    });
    const htmlRes = await server.request(filePath(html));
    expect(htmlRes.headers.get("content-disposition")).toBe(
      `attachment; filename="_vidence report.html"; filename*=UTF-8''%C3%A9vidence%20report.html`,
    );
    expect(htmlRes.headers.get("content-security-policy")).toBe("sandbox");
    expect(htmlRes.headers.get("x-content-type-options")).toBe("nosniff");
    await htmlRes.arrayBuffer();
    const svgRes = await server.request(filePath(svg));
    expect(svgRes.headers.get("content-disposition")).toMatch(/^attachment;/);
    await svgRes.arrayBuffer();
    const textRes = await server.request(filePath(text));
    expect(textRes.headers.get("content-disposition")).toMatch(/^inline; filename="notes.txt"/);
    await textRes.arrayBuffer();
  });

  it("answers a CORS preflight from a game UI", async () => {
    const res = await server.request(filePath(text), {
      method: "OPTIONS",
      headers: { Origin: "https://cfx-nui-lb-phone", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-api-key" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toBe("x-api-key");
  });

  it("counts downloads and downloaded bytes per server and day", async () => {
    const fresh = await seedOwner(server);
    const file = await seedFile(server, fresh, { bytes: randomBytes(1000), mimeType: "application/octet-stream", extension: "bin" });
    for (let i = 0; i < 3; i++) await (await server.request(filePath(file))).arrayBuffer();
    await (await server.request(filePath(file), { headers: { Range: "bytes=0-99" } })).arrayBuffer();
    await (await server.request(filePath(file), { method: "HEAD" })).arrayBuffer();
    await server.flushUsage();
    const row = await server.ctx.db.selectFrom("usage_daily").selectAll().where("server_id", "=", fresh.serverId).executeTakeFirstOrThrow();
    expect(row.downloads).toBe(4);
    expect(Number(row.download_bytes)).toBe(3100);
  });
});

describe("/f/ not found and private files", () => {
  it("answers 404 JSON for unknown files and malformed paths", async () => {
    for (const path of [`/f/${owner.serverId}/screenshots/nope.png`, "/f/UPPER/x/y.png", "/f/a/b", `/f/${owner.serverId}/../etc/passwd`]) {
      const res = await server.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(await res.json()).toMatchObject({ success: false, code: "not_found" });
    }
  });

  it("does not reveal that a private file exists without a key", async () => {
    const secret = await seedFile(server, owner, { bytes: Buffer.from("private"), mimeType: "text/plain", extension: "txt", isPublic: false });
    const res = await server.request(filePath(secret));
    const missing = await server.request(`/f/${owner.serverId}/screenshots/${"0".repeat(16)}.txt`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(await missing.json());
  });

  it("stops serving a deleted file within the cache TTL", async () => {
    const file = await seedFile(server, owner, { bytes: Buffer.from("soon gone"), mimeType: "text/plain", extension: "txt" });
    expect((await server.request(filePath(file))).status).toBe(200);
    await server.ctx.db.deleteFrom("files").where("id", "=", file.id).execute();
    await server.ctx.blobs.delete(file.storage_key);
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    expect((await server.request(filePath(file))).status).toBe(404);
  });
});

describe("graceful shutdown", () => {
  it("finishes a slow in-flight download while refusing new connections", { timeout: 60_000 }, async () => {
    const own = await startTestServer();
    const who = await seedOwner(own);
    const big = randomBytes(4 * 1024 * 1024);
    const file = await seedFile(own, who, { bytes: big, mimeType: "application/octet-stream", extension: "bin" });
    const url = new URL(filePath(file), own.url);

    const received: Buffer[] = [];
    const done = new Promise<number>((resolve, reject) => {
      http
        .get(url, (res) => {
          res.pause();
          // Read 32 KiB every 10 ms (~3 MB/s, so 4 MiB takes over a second): the response is
          // still in flight when the server is told to close, however fast the machine.
          const timer = setInterval(() => {
            const chunk: Buffer | null = res.read(32 * 1024);
            if (chunk !== null) received.push(chunk);
          }, 10);
          res.on("end", () => {
            clearInterval(timer);
            resolve(res.statusCode ?? 0);
          });
          res.on("readable", () => {});
          res.on("error", reject);
        })
        .on("error", reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const closing = own.close();
    expect(Buffer.concat(received).length).toBeLessThan(big.length);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(fetch(url)).rejects.toThrow();
    expect(await done).toBe(200);
    expect(Buffer.concat(received).equals(big)).toBe(true);
    const finished = Date.now();
    await closing;
    // The drained keep-alive connection is closed at once, not after the grace period.
    expect(Date.now() - finished).toBeLessThan(2_000);
  });
});
