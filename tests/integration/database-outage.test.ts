import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { createSessionCookie } from "../helpers/auth.ts";
import { Cluster, initdb } from "../helpers/pg-cluster.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/**
 * The database going away under a running instance: a private PostgreSQL cluster this test starts,
 * kills (immediate shutdown, as a crash or a failover does) mid-upload and starts again.
 */

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** A PNG of random pixels: it does not compress, so half of it is well past the type sniffing. */
function noisePng(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png().toBuffer();
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!initdb)("database outage", () => {
  let cluster: Cluster;
  let server: TestServer;
  let account: SeededAccount;
  const unhandled: unknown[] = [];
  const record = (error: unknown) => unhandled.push(error);

  beforeAll(async () => {
    process.on("uncaughtException", record);
    process.on("unhandledRejection", record);
    cluster = await Cluster.create();
    await cluster.start();
    server = await startTestServer({ DATABASE_URL: cluster.url });
    account = await seedAccount(server.ctx);
  });

  afterAll(async () => {
    try {
      await server?.close();
    } finally {
      await cluster?.remove();
    }
    process.off("uncaughtException", record);
    process.off("unhandledRejection", record);
  });

  const upload = (body: BodyInit, name: string) =>
    server.request("/api/upload", {
      method: "POST",
      body,
      headers: { "x-api-key": account.key, "content-type": "image/png", "x-filename": name },
      duplex: "half",
    } as RequestInit);

  /** No blob without its row, and every account's and server's usage equal to the sum of its files. */
  async function expectInvariants() {
    const { db } = server.ctx;
    const files = await db.selectFrom("files").select(["storage_key", "size_bytes"]).execute();
    const variants = await db.selectFrom("file_variants").select("storage_key").execute();
    const known = new Set([...files, ...variants].map((row) => row.storage_key));
    const root = path.join(server.dataDir, "files");
    const onDisk = listFiles(root).map((file) => path.relative(root, file).split(path.sep).join("/"));
    expect(onDisk.filter((key) => !known.has(key))).toEqual([]);
    const total = files.reduce((sum, row) => sum + row.size_bytes, 0);
    const usage = await db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", account.teamId).executeTakeFirstOrThrow();
    const srv = await db.selectFrom("servers").select("storage_used_bytes").where("id", "=", account.serverId).executeTakeFirstOrThrow();
    expect(usage.used_bytes).toBe(total);
    expect(srv.storage_used_bytes).toBe(total);
    return { files: files.length, total };
  }

  it("answers 503 database_unavailable while PostgreSQL is down, keeps nothing, stays up and recovers on its own", { timeout: 120_000 }, async () => {
    const image = await noisePng(320, 240);
    const { cookie } = await createSessionCookie(server.ctx, account.userId);
    const first = await upload(new Uint8Array(image), "before.png");
    expect(first.status).toBe(201);
    const before = await expectInvariants();
    expect(before.files).toBe(1);
    const filesRoot = path.join(server.dataDir, "files");
    const keptBefore = listFiles(filesRoot).sort();
    // Log entries acknowledged just before: their count toward the plan's volume is written a second later.
    const logKey = (await createApiKey(server.ctx.db, { serverId: account.serverId, teamId: account.teamId, name: "logs", permissions: ["logs:write"] })).secret;
    const sendLogs = (messages: string[]) =>
      server.request("/api/logs", { method: "POST", headers: { "x-api-key": logKey, "content-type": "application/json" }, body: JSON.stringify(messages.map((message) => ({ message }))) });

    // Idle pooled connections, and one checked out in an open transaction, when the database dies.
    await Promise.all(Array.from({ length: 5 }, () => server.request("/api/health")));
    let holdOpen!: () => void;
    const released = new Promise<void>((resolve) => (holdOpen = resolve));
    const heldTransaction = server.ctx.db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      await released;
      await sql`SELECT 1`.execute(trx);
    });
    heldTransaction.catch(() => {});

    // An upload streaming while the database goes away.
    let push!: (chunk: Uint8Array | null) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (chunk) => (chunk ? controller.enqueue(chunk) : controller.close());
        // A failed assertion must not leave the request (and so the server's shutdown) waiting on this body.
        onTestFinished(() => controller.error(new Error("test over")));
      },
    });
    const streaming = upload(body, "during.png");
    const half = Math.floor(image.length / 2);
    push(new Uint8Array(image.subarray(0, half)));
    await until(() => listFiles(path.join(filesRoot, ".tmp")).length > 0);
    expect((await sendLogs(["one", "two", "three"])).status).toBe(200);
    await cluster.stop("immediate");
    push(new Uint8Array(image.subarray(half)));
    push(null);

    const refused = await streaming;
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ success: false, status: "error", code: "database_unavailable" });

    holdOpen();
    await expect(heldTransaction).rejects.toThrow();

    const health = await server.request("/api/health");
    expect(health.status).toBe(503);
    expect(health.headers.get("retry-after")).toBeTruthy();
    expect((await health.json()).db).toMatchObject({ ok: false, status: "down" });
    // People see it on /status, which monitors can watch by its status code too.
    const status = await server.request("/status");
    expect(status.status).toBe(503);
    const statusPage = await status.text();
    expect(statusPage).toContain("Some systems are not working right now");
    expect(statusPage).toMatch(/Database<\/span><span[^>]*>[\s\S]*?Down</);

    // Every way in answers the same clear JSON while the database is away.
    const search = await server.request("/api/search", { headers: { "x-api-key": account.key } });
    expect(search.status).toBe(503);
    expect((await search.json()).code).toBe("database_unavailable");
    const cdn = await server.request(`/f/${account.serverId}/other/never-uploaded.png`);
    expect(cdn.status).toBe(503);
    expect(cdn.headers.get("retry-after")).toBeTruthy();
    expect((await cdn.json()).code).toBe("database_unavailable");
    const page = await server.request("/dashboard", { headers: { Cookie: cookie } });
    expect(page.status).toBe(503);
    expect(await page.text()).toContain("The database is unavailable right now");
    const again = await upload(new Uint8Array(image), "refused.png");
    expect(again.status).toBe(503);
    expect((await again.json()).code).toBe("database_unavailable");
    expect(listFiles(filesRoot).sort()).toEqual(keptBefore);
    const logsRefused = await sendLogs(["lost"]);
    expect(logsRefused.status).toBe(503);
    expect((await logsRefused.json()).code).toBe("database_unavailable");
    // The flush that cannot reach the database keeps the counts for the next one.
    await server.ctx.logVolume.flush();

    await cluster.start();
    await until(async () => (await server.request("/api/health")).status === 200);
    const healthy = await (await server.request("/api/health")).json();
    expect(healthy).toMatchObject({ status: "ok", db: { ok: true, status: "up" } });

    const after = await upload(new Uint8Array(await noisePng(200, 100)), "after.png");
    expect(after.status).toBe(201);
    const record = (await after.json()) as { url: string };
    expect((await fetch(record.url)).status).toBe(200);

    await server.ctx.logVolume.flush();
    const counted = await server.ctx.db.selectFrom("usage_daily").select("log_entries").where("server_id", "=", account.serverId).execute();
    expect(counted.reduce((sum, row) => sum + row.log_entries, 0)).toBe(3);

    const end = await expectInvariants();
    expect(end.files).toBe(2);
    expect(unhandled).toEqual([]);
  });
});
