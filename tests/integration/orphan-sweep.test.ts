import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import pg from "pg";
import { describe, expect } from "vitest";
import { JOB_LOCKS } from "../../app/services/platform/job-lock.server.ts";
import { sweepOrphanBlobs } from "../../app/services/maintenance/orphan-sweep.server.ts";
import { incompleteUploadGraceMs, reconcileStorage } from "../../app/services/maintenance/storage-reconcile.server.ts";
import { seedAccount } from "../helpers/api-seed.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { usingPostgres } from "../helpers/test-db.ts";
import { form, png } from "../helpers/upload-fixtures.ts";

describe("orphan blob sweep", () => {
  test("deletes old blobs without a file or variant row and keeps everything else", async ({ server }) => {
    const account = await seedAccount(server.ctx);
    const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": account.key }, body: form([{ field: "file", data: await png(), filename: "a.png" }]) });
    const file = await res.json();
    const { blobs } = server.ctx;
    await blobs.put(`${account.serverId}/other/orphan.png`, Readable.from([Buffer.from("left by a crash")]));
    await blobs.put(`${account.serverId}/other/fresh.png`, Readable.from([Buffer.from("upload in flight")]));
    const old = new Date(Date.now() - 60 * 60_000);
    for (const key of [file.path, `${account.serverId}/other/orphan.png`]) {
      fs.utimesSync(path.join(server.dataDir, "files", key), old, old);
    }

    expect(await sweepOrphanBlobs(server.ctx)).toBe(1);
    expect(await blobs.head(`${account.serverId}/other/orphan.png`)).toBeNull();
    expect(await blobs.head(`${account.serverId}/other/fresh.png`)).not.toBeNull();
    expect(await blobs.head(file.path)).not.toBeNull();
  });
});

describe("storage reconciler (periodic, one instance at a time)", () => {
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
  const tempFile = (server: TestServer, name: string, age: Date) => {
    const file = path.join(server.dataDir, "files", ".tmp", name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "part of an upload");
    fs.utimesSync(file, age, age);
    return file;
  };

  test("keeps the temp file of an upload that may still be arriving and removes one older than any upload may take", async ({ server }) => {
    // Default REQUEST_TIMEOUT_S is an hour: a 20-minute-old temp file can be a slow upload on another instance.
    expect(incompleteUploadGraceMs(server.ctx.config)).toBe(3600_000 + 5 * 60_000);
    const inFlight = tempFile(server, "in-flight", minutesAgo(20));
    const abandoned = tempFile(server, "abandoned", minutesAgo(2 * 60));
    const account = await seedAccount(server.ctx);
    const orphan = `${account.serverId}/other/crash-leftover.png`;
    await server.ctx.blobs.put(orphan, Readable.from([Buffer.from("left by a crash")]));
    fs.utimesSync(path.join(server.dataDir, "files", orphan), minutesAgo(60), minutesAgo(60));

    const result = await reconcileStorage(server.ctx);
    expect(result).toMatchObject({ ran: true, incompleteRemoved: 1, orphansRemoved: 1 });
    expect(fs.existsSync(inFlight)).toBe(true);
    expect(fs.existsSync(abandoned)).toBe(false);
    expect(await server.ctx.blobs.head(orphan)).toBeNull();
    fs.rmSync(inFlight);
  });

  test.runIf(usingPostgres)("runs on one instance at a time: another instance holding the lock means this one skips", async ({ server }) => {
    const abandoned = tempFile(server, "abandoned-2", minutesAgo(3 * 60));
    const other = new pg.Client({ connectionString: server.ctx.config.DATABASE_URL });
    await other.connect();
    try {
      await other.query("SELECT pg_advisory_lock($1)", [JOB_LOCKS.storageReconcile]);
      expect(await reconcileStorage(server.ctx)).toEqual({ ran: false, incompleteRemoved: 0, orphansRemoved: 0, filesMissing: 0 });
      expect(fs.existsSync(abandoned)).toBe(true);
      await other.query("SELECT pg_advisory_unlock($1)", [JOB_LOCKS.storageReconcile]);
      expect((await reconcileStorage(server.ctx)).ran).toBe(true);
      expect(fs.existsSync(abandoned)).toBe(false);
    } finally {
      await other.end();
    }
  });
});
