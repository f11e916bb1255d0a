import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, inject, it } from "vitest";
import { png } from "../helpers/upload-fixtures.ts";
import { test } from "../helpers/fixtures.ts";
import { ConfigError, loadConfig } from "../../app/services/platform/env.server.ts";
import type { TestServer } from "../helpers/server.ts";
import { usingPostgres } from "../helpers/test-db.ts";

let server: TestServer;

function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

test.beforeAll(async ({ server: started }) => {
  server = started;
});

describe("health", () => {
  it("reports the database, storage, version and uptime", async () => {
    const res = await server.request("/api/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = await res.json();
    expect(body).toMatchObject({
      status: "ok",
      db: { ok: true, kind: usingPostgres ? "PostgreSQL" : "PGlite" },
      storage: { ok: true, kind: "disk" },
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect(body.uptime_s).toBeGreaterThanOrEqual(0);
  });

  it("answers 503 when storage stops working", async () => {
    const original = server.ctx.blobs.check;
    server.ctx.blobs.check = async () => {
      throw new Error("disk unplugged");
    };
    try {
      const res = await server.request("/api/health");
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body.status).toBe("degraded");
      expect(body.storage).toMatchObject({ ok: false, error: "disk unplugged" });
    } finally {
      server.ctx.blobs.check = original;
    }
  });
});

describe("host", () => {
  it("server-renders the home page with security headers and a request id", async () => {
    const res = await server.request("/", { headers: { "Accept-Encoding": "identity" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<title>[^<]+ \| Stash<\/title>/);
    expect(res.headers.get("x-request-id")).toMatch(/[0-9a-f-]{36}/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self' 'nonce-");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });

  it("keeps the caller's request id", async () => {
    const res = await server.request("/api/health", { headers: { "X-Request-Id": "trace-abc" } });
    expect(res.headers.get("x-request-id")).toBe("trace-abc");
  });

  it("compresses HTML and JSON", async () => {
    for (const pathname of ["/", "/api/health"]) {
      const res = await rawGet(`${server.url}${pathname}`, { "Accept-Encoding": "gzip" });
      expect(res.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(res.body).toString()).toMatch(/<!DOCTYPE html>|"status":"ok"/);
    }
  });

  it("streams a long page through brotli whole, without piling up drain listeners", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      // The docs page is ~240 KB of HTML: React writes it faster than brotli takes it, so it waits for "drain" many times.
      const res = await rawGet(`${server.url}/docs`, { "Accept-Encoding": "br" });
      expect(res.headers["content-encoding"]).toBe("br");
      const html = brotliDecompressSync(res.body).toString();
      expect(html.length).toBeGreaterThan(100_000);
      expect(html.trimEnd()).toMatch(/<\/html>$/);
      // Node emits the warning on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning").map((w) => w.message)).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("never compresses file paths", async () => {
    const res = await server.request("/f/none/other/x.png", { headers: { "Accept-Encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("content-security-policy")).toBe("sandbox");
  });

  test("sends upload answers uncompressed: a few KB of JSON is not worth the CPU on every upload", async ({ account }) => {
    const body = new FormData();
    body.append("file", new Blob([new Uint8Array(await png())], { type: "image/png" }), "shot.png");
    const res = await rawPost(`${server.url}/api/upload`, body, { "Accept-Encoding": "gzip, br", "x-api-key": account.key });
    expect(res.statusCode).toBe(201);
    // Big enough that compression would apply (threshold 1 KB), and JSON like the health answer that is compressed.
    expect(res.body.length).toBeGreaterThan(1024);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(res.body.toString()).success).toBe(true);
  });

  // Built assets exist when the app runs from build/ (always on CI), not when an edit has it load the sources.
  it.runIf(inject("appSource") === "build")("serves built assets with immutable caching", async () => {
    // Public pages carry only the stylesheet; the sign-in page also loads the client bundle.
    const homeHtml = await (await server.request("/")).text();
    const authHtml = await (await server.request("/auth")).text();
    const assets = [/\/assets\/[^"]+\.css/.exec(homeHtml)?.[0], /\/assets\/[^"]+\.js/.exec(authHtml)?.[0]];
    for (const asset of assets) {
      expect(asset).toBeTruthy();
      const res = await server.request(asset!);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
  });

  it("shows the 404 page for unknown paths", async () => {
    const res = await server.request("/no/such/page");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Oops! Page not found");
    expect(html).toContain('href="/"');
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const res = await server.request("/api/does-not-exist");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, code: "not_found" });
  });

  it("exposes Prometheus metrics with request counts by route", async () => {
    await server.request("/api/health");
    const res = await server.request("/metrics");
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toMatch(/stash_http_requests_total\{method="GET",route="\/api\/health",status="200"\} \d+/);
    expect(body).toContain("stash_http_request_duration_seconds_bucket");
    expect(body).toMatch(/stash_stored_bytes \d+/);
    expect(body).toContain("stash_upload_bytes_total");
  });
});

describe("configuration", () => {
  it("names the variable and the problem when a value is invalid", () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems.join("\n");
      }
      throw new Error("loadConfig accepted an invalid environment");
    };
    const basic = problems({ PORT: "eighty", APP_URL: "not a url" });
    expect(basic).toMatch(/^PORT: .*expected number/m);
    expect(basic).toMatch(/^APP_URL: /m);
    expect(problems({ S3_BUCKET: "b" })).toBe("S3_BUCKET: S3_BUCKET needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY as well");
    expect(problems({ MAX_UPLOAD_MB: "0" })).toMatch(/^MAX_UPLOAD_MB: /);
  });

  it("defaults CDN_BASE_URL to APP_URL and the data dir to ./data", () => {
    const config = loadConfig({ APP_URL: "https://stash.example/" });
    expect(config.cdnBaseUrl).toBe("https://stash.example");
    expect(config.dataDir.endsWith("/data")).toBe(true);
    expect(config.cookieSecure).toBe(true);
    expect(config.maxUploadBytes).toBe(50 * 1024 * 1024);
  });
});

/** A POST with Node's http client, which, unlike fetch, shows the encoding the server chose. */
async function rawPost(url: string, form: FormData, headers: Record<string, string>): Promise<{ statusCode: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const request = new Request(url, { method: "POST", body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { ...headers, "Content-Type": request.headers.get("content-type")!, "Content-Length": payload.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(payload);
  });
}
