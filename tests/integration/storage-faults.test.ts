/**
 * Storage faults a client must be able to tell from a bug: a full volume answers 507
 * insufficient_storage and a throttling S3 answers 503 storage_unavailable, both with Retry-After,
 * over a connection the client can keep using; and neither leaves a blob, a row or counted bytes.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { keepAliveClient, type KeepAliveClient } from "../helpers/keep-alive-client.ts";
import { testAudio } from "../helpers/media-fixtures.ts";
import { startLocalS3, type LocalS3 } from "../helpers/s3rver.ts";
import { freePort, startTestServer, type TestServer } from "../helpers/server.ts";
import { form } from "../helpers/upload-fixtures.ts";

/** A voice note of about 1.7 MB (16-bit PCM WAV), an allowed type on a server made with the defaults. */
const clip = testAudio("wav", 20);
const upload = () => form([{ field: "file", data: clip, filename: "voice-note.wav", type: "audio/wav" }]);

async function expectNothingKept(server: TestServer, account: SeededAccount) {
  const rows = await server.ctx.db.selectFrom("files").select("id").where("server_id", "=", account.serverId).execute();
  expect(rows).toEqual([]);
  const usage = await server.ctx.db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", account.teamId).executeTakeFirst();
  expect(Number(usage?.used_bytes ?? 0)).toBe(0);
  const srv = await server.ctx.db.selectFrom("servers").select("storage_used_bytes").where("id", "=", account.serverId).executeTakeFirstOrThrow();
  expect(Number(srv.storage_used_bytes)).toBe(0);
  const blobs: string[] = [];
  for await (const blob of server.ctx.blobs.list()) blobs.push(blob.key);
  expect(blobs).toEqual([]);
}

async function expectStoredOnce(server: TestServer, account: SeededAccount, res: Response) {
  expect(res.status).toBe(201);
  const body = await res.json();
  const row = await server.ctx.db.selectFrom("files").select(["size_bytes", "storage_key"]).where("id", "=", body.id).executeTakeFirstOrThrow();
  const usage = await server.ctx.db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", account.teamId).executeTakeFirstOrThrow();
  expect(Number(usage.used_bytes)).toBe(Number(row.size_bytes));
  expect((await server.ctx.blobs.head(row.storage_key))?.size).toBe(Number(row.size_bytes));
}

function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), "stash-mount-probe-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe], { stdio: "ignore" });
    execFileSync("umount", [probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

describe.skipIf(!canMountTmpfs())("a full disk (a small tmpfs as the data directory)", { timeout: 120_000 }, () => {
  let mount: string;
  let server: TestServer;
  let account: SeededAccount;
  let client: KeepAliveClient;
  const filler = () => path.join(mount, "filler");

  beforeAll(async () => {
    mount = fs.mkdtempSync(path.join(os.tmpdir(), "stash-full-disk-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", mount]);
    server = await startTestServer({ DATA_DIR: path.join(mount, "data") });
    account = await seedAccount(server.ctx, { server: { allowedFileTypes: undefined } });
    client = keepAliveClient(server.url);
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await server?.close();
    execFileSync("umount", ["-l", mount]);
    fs.rmSync(mount, { recursive: true, force: true });
  });

  /** Leaves `bytes` free on the volume. */
  function fillLeaving(bytes: number) {
    fs.rmSync(filler(), { force: true });
    const stat = fs.statfsSync(mount);
    const free = stat.bavail * stat.bsize;
    fs.writeFileSync(filler(), Buffer.alloc(Math.max(0, free - bytes)));
  }

  it("refuses an upload that does not fit with 507 insufficient_storage, keeps nothing, and the client's next request succeeds", async () => {
    fillLeaving(512 * 1024);
    const res = await client.request("/api/upload", { headers: { "x-api-key": account.key }, body: upload() });
    expect(res.status).toBe(507);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await res.json()).toMatchObject({ success: false, status: "error", code: "insufficient_storage" });
    await expectNothingKept(server, account);
    expect(fs.readdirSync(path.join(mount, "data", "files", ".tmp"))).toEqual([]);

    // An unread body this large ends its connection gracefully (app/http/unread-body.server.ts); the next request still works.
    const health = await client.request("/api/health");
    expect(health.status).toBe(200);
  });

  it("refuses a voice note held in memory (under 1 MiB) that does not fit the same way", async () => {
    fillLeaving(256 * 1024);
    const note = form([{ field: "file", data: testAudio("wav", 5), filename: "short-note.wav", type: "audio/wav" }]);
    const res = await client.request("/api/upload", { headers: { "x-api-key": account.key }, body: note });
    expect(res.status).toBe(507);
    expect(await res.json()).toMatchObject({ success: false, code: "insufficient_storage" });
    await expectNothingKept(server, account);
    expect(fs.readdirSync(path.join(mount, "data", "files", ".tmp"))).toEqual([]);
    expect((await client.request("/api/health")).status).toBe(200);
  });

  it("reports the full volume on /api/health and stores again once space is freed", async () => {
    fillLeaving(0);
    const health = await server.request("/api/health");
    expect(health.status).toBe(503);
    expect((await health.json()).storage).toMatchObject({ ok: false, kind: "disk" });

    fs.rmSync(filler(), { force: true });
    await expectStoredOnce(server, account, await client.request("/api/upload", { headers: { "x-api-key": account.key }, body: upload() }));
  });
});

/**
 * S3 that throttles: a proxy in front of s3rver answers every write with 503 SlowDown, as AWS S3
 * does under load, while `throttling` is on.
 */
async function startThrottlingProxy(target: URL) {
  const state = { throttling: false, throttled: 0 };
  const server = http.createServer((req, res) => {
    if (state.throttling && (req.method === "PUT" || req.method === "POST")) {
      state.throttled++;
      req.resume();
      req.on("end", () => {
        res.writeHead(503, { "content-type": "application/xml" });
        res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
      });
      return;
    }
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    state,
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("a throttling S3", { timeout: 120_000 }, () => {
  let s3: LocalS3;
  let proxy: Awaited<ReturnType<typeof startThrottlingProxy>>;
  let server: TestServer;
  let account: SeededAccount;
  let client: KeepAliveClient;

  beforeAll(async () => {
    s3 = await startLocalS3();
    proxy = await startThrottlingProxy(new URL(s3.endpoint));
    server = await startTestServer({
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: proxy.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    });
    account = await seedAccount(server.ctx, { server: { allowedFileTypes: undefined } });
    client = keepAliveClient(server.url);
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await server?.close();
    await proxy?.close();
    await s3?.close();
  });

  it("answers 503 storage_unavailable with Retry-After after a bounded number of tries, and keeps nothing", async () => {
    proxy.state.throttling = true;
    const res = await client.request("/api/upload", { headers: { "x-api-key": account.key }, body: upload() });
    proxy.state.throttling = false;
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await res.json()).toMatchObject({ success: false, code: "storage_unavailable" });
    // Retried, but not forever: three tries of the one PutObject the clip needs.
    expect(proxy.state.throttled).toBeGreaterThan(1);
    expect(proxy.state.throttled).toBeLessThanOrEqual(3);
    await expectNothingKept(server, account);
  });

  it("stores the same upload once S3 accepts writes again", async () => {
    await expectStoredOnce(server, account, await client.request("/api/upload", { headers: { "x-api-key": account.key }, body: upload() }));
  });
});
