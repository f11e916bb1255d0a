/**
 * A file whose bytes were lost (a restored backup, a lost disk) is found by `storage:check` and
 * removed by `--repair`, which releases its storage: afterwards stored usage is again the sum of
 * the stored files' sizes and every row has its blob.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/index.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";
import { seedAccount } from "../helpers/api-seed.ts";
import { signUpAndSignIn } from "../helpers/auth.ts";
import { freePort, startTestServer } from "../helpers/server.ts";
import { createTestDatabase } from "../helpers/test-db.ts";
import { form, png } from "../helpers/upload-fixtures.ts";
import type { FileId, ServerId, TeamId } from "../../app/lib/ids.ts";

const run = promisify(execFile);
let dataDir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let serverId: ServerId;
let teamId: TeamId;
let lostId: FileId;

async function cli(...args: string[]) {
  const env = { ...process.env, LOG_LEVEL: "silent", DATA_DIR: dataDir, DATABASE_URL: database.url ?? "" };
  const { stdout } = await run(process.execPath, ["--import", "tsx", "cli/index.ts", ...args], { env });
  return stdout.trim();
}

async function openDb(): Promise<DbHandle> {
  return createDb({ databaseUrl: database.url, pgliteDir: path.join(dataDir, "db") });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-storage-check-"));
  database = await createTestDatabase();
  const server = await startTestServer({}, { prepared: { dataDir, database, port: await freePort() } });
  try {
    const account = await seedAccount(server.ctx);
    ({ serverId, teamId } = account);
    const ids: FileId[] = [];
    for (const size of [12, 16, 20]) {
      const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": account.key }, body: form([{ field: "file", data: await png(size, size), filename: `f${size}.png`, type: "image/png" }]) });
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }
    lostId = ids[1]!;
    const lost = await server.ctx.db.selectFrom("files").select("storage_key").where("id", "=", lostId).executeTakeFirstOrThrow();
    await server.ctx.blobs.delete(lost.storage_key);
  } finally {
    // Stopped as an operator stops it: the embedded database belongs to one process at a time.
    await server.stop();
  }
}, 120_000);

afterAll(async () => {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the storage reconciler's report", { timeout: 180_000 }, () => {
  it("counts the file whose bytes are gone on /metrics and on the admin dashboard, and deletes nothing", async () => {
    const server = await startTestServer({}, { prepared: { dataDir, database, port: await freePort() } });
    try {
      // In production the reconcile job runs as the instance starts (and hourly); here the test runs it.
      await server.runJob(BACKGROUND_JOBS.storageReconcile);
      const metrics = await (await server.request("/metrics")).text();
      expect(metrics).toMatch(/^stash_files_without_blob 1$/m);

      const admin = await signUpAndSignIn(server, { role: "admin" });
      const page = await (await server.request("/admin", { headers: { Cookie: admin.cookie } })).text();
      expect(page).toContain("Stored files");
      expect(page).toMatch(/1 file has lost their bytes \([\d.]+ (B|KB), checked \d+ \w{3} \d{4}, \d\d:\d\d UTC\); run npm run cli -- storage:check --repair/);
      expect(await server.ctx.db.selectFrom("files").select("id").where("id", "=", lostId).executeTakeFirst()).toBeDefined();
    } finally {
      await server.stop();
    }
  });
});

describe("storage:check", { timeout: 180_000 }, () => {
  it("reports the file whose bytes are gone, then --repair removes it and releases its storage", async () => {
    const report = JSON.parse(await cli("storage:check", "--json"));
    expect(report.checked).toBe(3);
    expect(report.missing.map((f: { id: string }) => f.id)).toEqual([lostId]);
    expect(report.missing[0].path).toMatch(new RegExp(`^${serverId}/other/`));
    expect(report.repaired).toBe(0);

    const text = await cli("storage:check", "--repair");
    expect(text).toContain("Checked 3 files: 1 without their bytes");
    expect(text).toContain("Removed 1 and released their storage");

    const db = await openDb();
    try {
      const files = await db.db.selectFrom("files").select(["id", "size_bytes"]).where("server_id", "=", serverId).execute();
      expect(files.map((f) => f.id)).not.toContain(lostId);
      expect(files).toHaveLength(2);
      const sum = files.reduce((total, f) => total + Number(f.size_bytes), 0);
      const usage = await db.db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", teamId).executeTakeFirstOrThrow();
      expect(Number(usage.used_bytes)).toBe(sum);
      const srv = await db.db.selectFrom("servers").select("storage_used_bytes").where("id", "=", serverId).executeTakeFirstOrThrow();
      expect(Number(srv.storage_used_bytes)).toBe(sum);
    } finally {
      await db.close();
    }
    expect(JSON.parse(await cli("storage:check", "--json")).missing).toEqual([]);
  });
});
