/**
 * Background work runs on one pg-boss queue shared by every instance: two instances on one
 * PostgreSQL database schedule each job once, and a run queued from either instance is done once —
 * an expired file is deleted once, its owner mailed once about the file that expires soon. Test
 * servers run in manual mode, where no job runs unless a test runs it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";
import { seedFile, seedOwner } from "../helpers/files.ts";
import { readOutbox } from "../helpers/mail.ts";
import { freePort, startTestServer, type TestServer } from "../helpers/server.ts";
import { createTestDatabase } from "../helpers/test-db.ts";

async function waitFor(check: () => Promise<boolean>, ms = 30_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("one job queue across two instances (PostgreSQL)", { timeout: 120_000 }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  let a: TestServer;
  let b: TestServer;

  // Instances share the database and the blob store (one volume), as a scaled-out deployment does.
  const instance = async () => startTestServer({ JOBS_MODE: "scheduled" }, { prepared: { dataDir, database, port: await freePort() } });
  const jobStates = async () =>
    (await sql<{ name: string; state: string }>`SELECT name, state::text AS state FROM pgboss.job`.execute(a.ctx.db)).rows;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-jobs-"));
    a = await instance();
    b = await instance();
  }, 120_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("schedules each job once, however many instances run the scheduler", async () => {
    const schedules = await sql<{ name: string; cron: string }>`SELECT name, cron FROM pgboss.schedule ORDER BY name`.execute(a.ctx.db);
    expect(schedules.rows).toEqual([
      { name: BACKGROUND_JOBS.imports, cron: "* * * * *" },
      { name: BACKGROUND_JOBS.logDelivery, cron: "* * * * *" },
      { name: BACKGROUND_JOBS.resumableCleanup, cron: "23 * * * *" },
      { name: BACKGROUND_JOBS.retentionSweep, cron: "*/10 * * * *" },
      { name: BACKGROUND_JOBS.sessionPurge, cron: "17 * * * *" },
      { name: BACKGROUND_JOBS.statusSample, cron: "*/5 * * * *" },
      { name: BACKGROUND_JOBS.storageReconcile, cron: "41 * * * *" },
      { name: BACKGROUND_JOBS.videoCopies, cron: "* * * * *" },
    ]);
    // The runs both instances queued at start are done, none failed — but log delivery and imports, whose
    // runs last most of a minute: exactly one instance runs each, the other's start was refused.
    const lingering: string[] = [BACKGROUND_JOBS.logDelivery, BACKGROUND_JOBS.imports];
    await waitFor(async () => (await jobStates()).filter((job) => !lingering.includes(job.name)).every((job) => job.state === "completed"));
    const deliveryRuns = async () => (await jobStates()).filter((job) => job.name === BACKGROUND_JOBS.logDelivery && job.state === "active").length;
    await waitFor(async () => (await deliveryRuns()) === 1);
    // The queue's "stately" policy never lets a second run start while one is active.
    expect(await deliveryRuns()).toBe(1);
    expect((await jobStates()).length).toBeGreaterThanOrEqual(6);
    // Both instances sampled health at start: one row per five-minute slot.
    const samples = await a.ctx.db.selectFrom("status_samples").select(["ok"]).execute();
    expect(samples.length).toBeGreaterThanOrEqual(1);
    expect(samples.every((row) => row.ok)).toBe(true);
  });

  it("runs a sweep queued from both instances once: the due file deleted, the owner mailed once", async () => {
    const owner = await seedOwner(a);
    const bytes = Buffer.from("evidence");
    const due = await seedFile(a, owner, { bytes, mimeType: "text/plain", extension: "txt" });
    const soon = await seedFile(a, owner, { bytes, mimeType: "text/plain", extension: "txt", originalFilename: "bodycam-notes.txt" });
    await a.ctx.db.updateTable("files").set({ expires_at: new Date(Date.now() - 60_000) }).where("id", "=", due.id).execute();
    await a.ctx.db.updateTable("files").set({ expires_at: new Date(Date.now() + 2 * 86_400_000) }).where("id", "=", soon.id).execute();

    const queued = await Promise.all([a.jobs.runSoon(BACKGROUND_JOBS.retentionSweep), b.jobs.runSoon(BACKGROUND_JOBS.retentionSweep)]);
    expect(queued.some((id) => id !== null)).toBe(true);

    await waitFor(async () => !(await a.ctx.db.selectFrom("files").select("id").where("id", "=", due.id).executeTakeFirst()));
    await waitFor(async () => (await jobStates()).filter((job) => job.name === BACKGROUND_JOBS.retentionSweep).every((job) => job.state === "completed"));
    const mails = readOutbox(dataDir).filter((mail) => mail.body.includes("bodycam-notes.txt"));
    expect(mails).toHaveLength(1);
    expect(await a.ctx.blobs.head(due.storage_key)).toBeNull();
    expect(await a.ctx.blobs.head(soon.storage_key)).not.toBeNull();
  });
});

describe("jobs under a test's control (JOBS_MODE=manual)", () => {
  test("nothing is queued, scheduled or run at start; a job runs when asked and its end is awaited", async ({ server }) => {
    const queue = await sql<{ exists: boolean }>`SELECT to_regclass('pgboss.job') IS NOT NULL AS exists`.execute(server.ctx.db);
    expect(queue.rows[0].exists).toBe(false);
    // The health sample every instance takes at start in scheduled mode was not taken.
    expect(await server.ctx.db.selectFrom("status_samples").select("ok").execute()).toEqual([]);

    await server.runJob(BACKGROUND_JOBS.statusSample);
    expect(await server.ctx.db.selectFrom("status_samples").select("ok").execute()).toEqual([{ ok: true }]);
    await expect(server.runJob("no-such-job")).rejects.toThrow("no background job named no-such-job");
    await expect(server.jobs.runSoon(BACKGROUND_JOBS.statusSample)).rejects.toThrow("runNow");
  });
});
