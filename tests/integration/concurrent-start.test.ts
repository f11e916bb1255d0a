/**
 * Instances started together, as a compose stack, a Kubernetes rollout or an autoscaler starts them:
 * separate `npm run serve` processes on one PostgreSQL database nothing has touched, with S3 (s3rver)
 * and Redis. Every one comes up healthy, migrations and the job queue's setup happen once, and no
 * instance logs a warning or an error (it used to end all but one with "deadlock detected",
 * docs/decisions/092). Also: a newer release migrating while older instances serve, and the bounded
 * wait for a start-up lock.
 */
import { sql, type Migration } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/index.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import { migrations } from "../../db/migrations/index.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";
import { partitionName } from "../../app/services/logs/log-partitions.server.ts";
import { seedAccount } from "../helpers/api-seed.ts";
import { prepareInstances, spawnInstance, troubleLines, waitHealthy, type Instance } from "../helpers/instances.ts";
import { startLocalS3, type LocalS3 } from "../helpers/s3rver.ts";
import { createTestDatabase, usingPostgres } from "../helpers/test-db.ts";
import { form, png } from "../helpers/upload-fixtures.ts";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const MIGRATION_LOCK_ID = 7_411_903_202_611n;
let s3: LocalS3;

/** What docker-compose.yml's S3 variant gives each app instance (decision 121), pointed at this test's PostgreSQL, S3 and Redis. */
function composeEnv(databaseUrl: string, bucket = s3.bucket): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    S3_BUCKET: bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: "true",
    REDIS_URL,
    TRUST_PROXY: "127.0.0.1",
  };
}

/** Starts `count` instances in the same tick and waits until each answers /api/health. */
async function startTogether(count: number, env: Record<string, string>): Promise<Instance[]> {
  const slots = await prepareInstances(count);
  const instances = slots.map((slot) => spawnInstance(slot, env));
  try {
    const health = await Promise.all(instances.map((instance) => waitHealthy(instance)));
    for (const report of health) expect(report).toMatchObject({ status: "ok", db: { status: "up" }, storage: { ok: true, kind: "s3" } });
  } catch (error) {
    await Promise.all(instances.map((instance) => instance.stop()));
    throw error;
  }
  return instances;
}

async function withDatabase<T>(url: string, work: (db: DbHandle["db"]) => Promise<T>): Promise<T> {
  const handle = await createDb({ databaseUrl: url, poolMax: 2 });
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

/** The start-up work every instance does was done once: each migration, each queue, each schedule; tomorrow's log partition exists. */
async function expectStartedOnce(url: string, instances: Instance[]) {
  const migratedBy = instances.filter((instance) => instance.entries().some((entry) => entry.msg === "database migrated"));
  expect(migratedBy).toHaveLength(1);
  expect(migratedBy[0].entries().find((entry) => entry.msg === "database migrated")?.applied).toEqual(Object.keys(migrations));
  await withDatabase(url, async (db) => {
    const recorded = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
    expect(recorded.rows.map((r) => r.name)).toEqual(Object.keys(migrations));
    const queues = await sql<{ name: string }>`SELECT name FROM pgboss.queue ORDER BY name`.execute(db);
    expect(queues.rows.map((r) => r.name)).toEqual(expect.arrayContaining(Object.values(BACKGROUND_JOBS)));
    const schedules = await sql<{ name: string }>`SELECT name FROM pgboss.schedule ORDER BY name`.execute(db);
    expect(schedules.rows.map((r) => r.name).sort()).toEqual(Object.values(BACKGROUND_JOBS).sort());
    // The purge run at start makes the log partitions ahead: today's and tomorrow's.
    const tomorrow = partitionName(new Date(Date.now() + 86_400_000));
    const until = Date.now() + 30_000;
    for (;;) {
      const { rows } = await sql<{ made: boolean }>`SELECT to_regclass(${tomorrow}) IS NOT NULL AS made`.execute(db);
      if (rows[0].made) break;
      if (Date.now() > until) throw new Error(`log partition ${tomorrow} was not made at start`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
}

beforeAll(async () => {
  s3 = await startLocalS3();
});

afterAll(async () => {
  await s3?.close();
});

describe.runIf(usingPostgres)("instances started together on an empty PostgreSQL database", () => {
  it("4 instances, started at the same moment 5 times over, all come up healthy with no warning or error", { timeout: 600_000 }, async () => {
    for (let round = 1; round <= 5; round++) {
      const database = await createTestDatabase();
      let instances: Instance[] = [];
      try {
        instances = await startTogether(4, composeEnv(database.url!));
        await expectStartedOnce(database.url!, instances);
        // Still up once the jobs each ran at start are through, and answering.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        for (const instance of instances) {
          expect(instance.child.exitCode, `round ${round}: ${instance.url}`).toBeNull();
          expect((await fetch(`${instance.url}/api/health`)).status).toBe(200);
        }
        const stopped = await Promise.all(instances.map((instance) => instance.stop()));
        expect(stopped).toEqual([0, 0, 0, 0]);
        for (const instance of instances) {
          expect(troubleLines(instance), `round ${round}: ${instance.url}`).toEqual([]);
        }
      } finally {
        await Promise.all(instances.map((instance) => instance.stop()));
        await database.drop();
      }
    }
  });

  it("two app instances on S3, as compose's S3 variant runs them, start together from empty volumes and serve as one", { timeout: 180_000 }, async () => {
    const database = await createTestDatabase();
    // An S3 deployment starts with an empty bucket; so does this.
    const bucket = await startLocalS3("stash");
    const saved = s3;
    s3 = bucket;
    let instances: Instance[] = [];
    try {
      instances = await startTogether(2, composeEnv(database.url!, "stash"));
      const [app1, app2] = instances;
      const account = await withDatabase(database.url!, (db) => seedAccount({ db }));
      const photo = await png(64, 48);
      const res = await fetch(`${app1.url}/api/upload`, {
        method: "POST",
        headers: { "x-api-key": account.key },
        body: form([{ field: "file", data: photo, filename: "phone.png", type: "image/png" }]),
      });
      expect(res.status).toBe(201);
      const { id, url } = (await res.json()) as { id: string; url: string };
      // The other instance serves the bytes the first stored (shared database and bucket).
      const served = await fetch(new URL(new URL(url).pathname, app2.url));
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(photo)).toBe(true);
      const described = await fetch(`${app2.url}/api/files/${id}`, { headers: { "x-api-key": account.key } });
      expect(described.status).toBe(200);
      await expectStartedOnce(database.url!, instances);
      expect(await Promise.all(instances.map((instance) => instance.stop()))).toEqual([0, 0]);
      for (const instance of instances) {
        expect(troubleLines(instance)).toEqual([]);
      }
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
      s3 = saved;
      await bucket.close();
      await database.drop();
    }
  });
});

describe.runIf(usingPostgres)("a rollout: a newer release migrates while older instances serve", () => {
  it("keeps answering during the migration, and an older instance started afterwards comes up on the newer schema", { timeout: 240_000 }, async () => {
    const database = await createTestDatabase();
    let instances: Instance[] = [];
    try {
      instances = await startTogether(2, composeEnv(database.url!));
      const account = await withDatabase(database.url!, (db) => seedAccount({ db }));
      const photo = await png(32, 24);
      const statuses: number[] = [];
      let serving = true;
      // Both older instances keep taking uploads and searches, one after another, while the new release migrates.
      const traffic = (async () => {
        for (let i = 0; serving; i++) {
          const instance = instances[i % 2];
          const upload = await fetch(`${instance.url}/api/upload`, {
            method: "POST",
            headers: { "x-api-key": account.key },
            body: form([{ field: "file", data: photo, filename: `during-${i}.png`, type: "image/png" }]),
          });
          statuses.push(upload.status);
          await upload.arrayBuffer();
          const search = await fetch(`${instance.url}/api/search?limit=5`, { headers: { "x-api-key": account.key } });
          statuses.push(search.status);
          await search.arrayBuffer();
          // Well inside the free plan's 30 uploads a minute.
          await new Promise((resolve) => setTimeout(resolve, 400));
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // The newer release adds a column to files (every upload and search reads the table) and takes its time.
      const newer: Migration = {
        async up(db) {
          await sql`ALTER TABLE files ADD COLUMN rollout_note text`.execute(db);
          await sql`SELECT pg_sleep(2)`.execute(db);
        },
      };
      const report = await withDatabase(database.url!, (db) => migrateToLatest(db, { migrations: { ...migrations, "9000-rollout-note": newer } }));
      expect(report.applied).toEqual(["9000-rollout-note"]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      serving = false;
      await traffic;
      expect(statuses.length).toBeGreaterThan(4);
      expect(new Set(statuses)).toEqual(new Set([201, 200]));

      // An instance of the older release restarting now (a crash, a scale-up before the rollout ends) must not fail.
      await instances[0].stop();
      const [slot] = await prepareInstances(1);
      const restarted = spawnInstance(slot, composeEnv(database.url!));
      instances[0] = restarted;
      await waitHealthy(restarted);
      expect(restarted.entries().find((entry) => entry.msg?.startsWith("the database schema is newer than this build"))).toMatchObject({
        unknown: ["9000-rollout-note"],
      });
      const after = await fetch(`${restarted.url}/api/upload`, {
        method: "POST",
        headers: { "x-api-key": account.key },
        body: form([{ field: "file", data: photo, filename: "after.png", type: "image/png" }]),
      });
      expect(after.status).toBe(201);
      const search = await fetch(`${restarted.url}/api/search?limit=100`, { headers: { "x-api-key": account.key } });
      expect((await search.json()).files.length).toBe(statuses.filter((s) => s === 201).length + 1);
      for (const instance of instances) {
        const trouble = troubleLines(instance).filter((line) => !line.includes("the database schema is newer than this build"));
        expect(trouble).toEqual([]);
      }
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
      await database.drop();
    }
  });
});

describe.runIf(usingPostgres)("the wait for a start-up lock", () => {
  it("is logged while it lasts, and bounded: an instance gives up with a message naming the lock and its holder", { timeout: 180_000 }, async () => {
    const database = await createTestDatabase();
    // Another instance mid-migration, as far as the lock is concerned.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    const instances: Instance[] = [];
    try {
      const { rows } = await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid, pg_advisory_lock($1::bigint)", [MIGRATION_LOCK_ID.toString()]);
      const [impatient, patient] = await prepareInstances(2);
      instances.push(spawnInstance(impatient, { ...composeEnv(database.url!), STARTUP_LOCK_TIMEOUT_S: "2" }));
      instances.push(spawnInstance(patient, composeEnv(database.url!)));
      expect(await instances[0].exited).toBe(1);
      expect(instances[0].stderr).toContain(`Gave up after 2 s waiting for the migration lock (held by PostgreSQL backend ${rows[0].pid})`);
      expect(instances[0].entries().find((entry) => entry.msg === "waiting for the migration lock; another instance holds it")).toMatchObject({ holder_pid: rows[0].pid });

      // The patient one waits, says so, and comes up once the lock is let go.
      const waiting = Date.now() + 60_000;
      while (!instances[1].entries().some((entry) => entry.msg === "waiting for the migration lock; another instance holds it")) {
        if (Date.now() > waiting) throw new Error("the waiting instance never said so");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await holder.query("SELECT pg_advisory_unlock($1::bigint)", [MIGRATION_LOCK_ID.toString()]);
      await waitHealthy(instances[1]);
      expect(instances[1].entries().some((entry) => entry.msg === "took the migration lock")).toBe(true);
    } finally {
      await holder.end();
      await Promise.all(instances.map((instance) => instance.stop()));
      await database.drop();
    }
  });
});
