/**
 * An instance SIGKILLed in the middle of uploads and restarted at once: it comes back on the same
 * data, what was acknowledged is all there, the interrupted uploads left no row and no counted
 * bytes, and their leftovers are removed by the reconciler once past the grace period — after which
 * stored usage is the sum of stored sizes, every row has its blob and every blob its row.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/index.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { testAudio } from "../helpers/media-fixtures.ts";
import { freePort, startTestServer } from "../helpers/server.ts";
import { createTestDatabase } from "../helpers/test-db.ts";
import { form } from "../helpers/upload-fixtures.ts";

let dataDir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let port: number;
let account: SeededAccount;
let instance: ChildProcess | undefined;
const voiceNote = testAudio("wav", 3);

/** The production entry as `npm start` runs it, on the prepared data directory and database. */
async function startInstance(): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), APP_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  if (database.url) env.DATABASE_URL = database.url;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["build/host/server.mjs"], { env, stdio: "ignore" });
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((res) => res.ok, () => false);
    if (ok) return child;
    if (Date.now() > until) throw new Error("instance did not become healthy in 60 s");
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function kill(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

/** An upload whose body arrives slowly and never ends: it is in flight when the instance dies. */
function startNeverEndingUpload(): Promise<void> {
  const boundary = "----crash";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bodycam.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  return new Promise((resolve) => {
    const req = http.request({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/api/upload",
      headers: { "x-api-key": account.key, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(head.length + 40_000_000) },
    });
    req.on("error", () => resolve());
    req.on("close", () => resolve());
    req.write(head);
    req.write(voiceNote.subarray(0, 44));
    const drip = setInterval(() => req.write(Buffer.alloc(64 * 1024)), 20);
    req.on("close", () => clearInterval(drip));
  });
}

async function withDb<T>(work: (db: DbHandle["db"]) => Promise<T>): Promise<T> {
  const handle = await createDb({ databaseUrl: database.url, pgliteDir: path.join(dataDir, "db") });
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-crash-"));
  database = await createTestDatabase();
  port = await freePort();
  const seeding = await startTestServer({}, { prepared: { dataDir, database, port } });
  try {
    account = await seedAccount(seeding.ctx, { server: { allowedFileTypes: undefined } });
  } finally {
    await seeding.stop();
  }
}, 120_000);

afterAll(async () => {
  if (instance && instance.exitCode === null) await kill(instance);
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("an instance killed mid-upload and restarted at once", { timeout: 240_000 }, () => {
  const acknowledged: string[] = [];

  it("comes back with every acknowledged file and nothing of the interrupted uploads counted", async () => {
    instance = await startInstance();
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/upload`, {
        method: "POST",
        headers: { "x-api-key": account.key },
        body: form([{ field: "file", data: voiceNote, filename: `note-${i}.wav`, type: "audio/wav" }]),
      });
      expect(res.status).toBe(201);
      acknowledged.push((await res.json()).id);
    }
    const inFlight = [startNeverEndingUpload(), startNeverEndingUpload()];
    // Both bodies are streaming into temp files when the process dies.
    const tempDir = path.join(dataDir, "files", ".tmp");
    const until = Date.now() + 30_000;
    while (walk(tempDir).filter((f) => fs.statSync(f).size > 256 * 1024).length < 2) {
      if (Date.now() > until) throw new Error("uploads never reached the temp directory");
      await new Promise((r) => setTimeout(r, 50));
    }
    await kill(instance);
    await Promise.all(inFlight);
    const leftovers = walk(tempDir);
    expect(leftovers.length).toBeGreaterThanOrEqual(2);

    instance = await startInstance();
    const list = await fetch(`http://127.0.0.1:${port}/api/search?limit=50`, { headers: { "x-api-key": account.key } });
    expect(list.status).toBe(200);
    for (const id of acknowledged) {
      const file = await fetch(`http://127.0.0.1:${port}/api/files/${id}`, { headers: { "x-api-key": account.key } });
      expect(file.status).toBe(200);
      const served = await fetch((await file.json()).url);
      expect(served.status).toBe(200);
      expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    // Young leftovers may be another instance's slow upload: the restart keeps them.
    for (const file of leftovers) expect(fs.existsSync(file)).toBe(true);
    // The restarted instance takes uploads again.
    const again = await fetch(`http://127.0.0.1:${port}/api/upload`, {
      method: "POST",
      headers: { "x-api-key": account.key },
      body: form([{ field: "file", data: voiceNote, filename: "after-restart.wav", type: "audio/wav" }]),
    });
    expect(again.status).toBe(201);
    acknowledged.push((await again.json()).id);
    await kill(instance);
    instance = undefined;
  });

  it("once past the grace period the reconciler removes the leftovers and the invariants hold", async () => {
    const past = new Date(Date.now() - 3 * 3_600_000);
    for (const file of walk(path.join(dataDir, "files"))) fs.utimesSync(file, past, past);

    instance = await startInstance();
    const tempDir = path.join(dataDir, "files", ".tmp");
    const until = Date.now() + 60_000;
    while (walk(tempDir).length > 0) {
      if (Date.now() > until) throw new Error(`leftovers not removed: ${walk(tempDir).join(", ")}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await kill(instance);
    instance = undefined;

    await withDb(async (db) => {
      const rows = await db.selectFrom("files").select(["id", "storage_key", "size_bytes"]).where("server_id", "=", account.serverId).execute();
      expect(rows.map((r) => r.id).sort()).toEqual([...acknowledged].sort());
      const stored = walk(path.join(dataDir, "files")).map((f) => path.relative(path.join(dataDir, "files"), f).split(path.sep).join("/"));
      const variants = await db.selectFrom("file_variants").select("storage_key").execute();
      // No row without its blob, no blob without its row.
      expect(stored.sort()).toEqual([...rows.map((r) => r.storage_key), ...variants.map((v) => v.storage_key)].sort());
      for (const row of rows) expect(fs.statSync(path.join(dataDir, "files", row.storage_key)).size).toBe(Number(row.size_bytes));
      const sum = rows.reduce((total, r) => total + Number(r.size_bytes), 0);
      const usage = await db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", account.teamId).executeTakeFirstOrThrow();
      expect(Number(usage.used_bytes)).toBe(sum);
      const srv = await db.selectFrom("servers").select("storage_used_bytes").where("id", "=", account.serverId).executeTakeFirstOrThrow();
      expect(Number(srv.storage_used_bytes)).toBe(sum);
    });
  });
});
