import http from "node:http";
import { sql } from "kysely";
import pg from "pg";
import { createDb, type Db } from "../db/index.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { ensureLogPartitions } from "../app/services/logs/log-partitions.server.ts";
import { logFiltersOf, searchLogs } from "../app/services/logs/log-search.server.ts";
import { percentile, round } from "./lib.ts";
import type { TeamId } from "../app/lib/ids.ts";

export interface LogIngestResult {
  batch: number;
  clients: number;
  stash: number;
  reference: number;
  ratio: number;
}

export interface LogTailResult {
  samples: number;
  p50: number;
  max: number;
}

export interface LogSearchResult {
  rows: number;
  loadSeconds: number;
  /** Right after the load, before any vacuum: each query also sets hint bits on the pages it reads first. */
  fresh: { p50: number; p99: number };
  p50: number;
  p99: number;
}

const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const RESOURCES = ["qb-banking", "ox_inventory", "txAdmin", "qb-phone", "esx_policejob"];
const LEVELS = ["info", "info", "info", "warn", "error"];

function batchBody(batch: number, offset: number): string {
  return JSON.stringify(
    Array.from({ length: batch }, (_, i) => {
      const n = offset + i;
      return { level: LEVELS[n % LEVELS.length], resource: RESOURCES[n % RESOURCES.length], message: `Player ${n % 977} paid $${n % 5000} to account ${n % 131}`, metadata: { citizenid: `CID${n % 977}`, amount: n % 5000 } };
    }),
  );
}

/** Entries per second that `clients` keep-alive clients get stored through POST /api/logs in `batch`-entry requests. */
async function stashIngest(port: number, keys: string[], batch: number, clients: number, seconds: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const deadline = Date.now() + seconds * 1000;
  let stored = 0;
  const client = async (index: number) => {
    let sent = 0;
    while (Date.now() < deadline) {
      const key = keys[(index + sent * clients) % keys.length]!;
      const body = batchBody(batch, sent * batch);
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port, path: "/api/logs", method: "POST", agent, headers: { "content-type": "application/json", "x-api-key": key, "content-length": Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        });
        req.on("error", reject);
        req.end(body);
      });
      if (status !== 200) throw new Error(`log ingest answered ${status}`);
      stored += batch;
      sent += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  agent.destroy();
  return stored / ((performance.now() - started) / 1000);
}

/** The same rows inserted by a bare `pg` loop: `clients` connections, one multi-row INSERT per batch into the same partitioned table. */
async function referenceIngest(databaseUrl: string, datasetId: string, batch: number, clients: number, seconds: number): Promise<number> {
  const deadline = Date.now() + seconds * 1000;
  let stored = 0;
  const client = async () => {
    const connection = new pg.Client({ connectionString: databaseUrl });
    await connection.connect();
    try {
      let sent = 0;
      while (Date.now() < deadline) {
        const rows = JSON.parse(batchBody(batch, sent * batch)) as Array<{ level: string; resource: string; message: string; metadata: object }>;
        const values: unknown[] = [];
        const tuples = rows.map((row, i) => {
          values.push(new Date(), datasetId, row.level, row.resource, row.message, JSON.stringify(row.metadata));
          const p = i * 6;
          return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6})`;
        });
        await connection.query(`INSERT INTO log_entries (ts, dataset_id, level, resource, message, metadata) VALUES ${tuples.join(", ")}`, values);
        stored += batch;
        sent += 1;
      }
    } finally {
      await connection.end();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, () => client()));
  return stored / ((performance.now() - started) / 1000);
}

/** A fresh database at the latest schema with one team, server and dataset, dropped once `run` is done. */
async function withLogDatabase<T>(dbName: string, datasetName: string, run: (setup: { db: Db; url: string; owner: TeamId; datasetId: string }) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName}`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${dbName}` }).toString();
  const handle = await createDb({ databaseUrl: url, poolMax: 2 });
  try {
    const db = handle.db;
    await migrateToLatest(db);
    const user = await sql<{ id: string }>`INSERT INTO users (email) VALUES ('bench@example.com') RETURNING id`.execute(db);
    const team = await sql<{ id: TeamId }>`INSERT INTO teams (name, owner_user_id) VALUES ('Bench', ${user.rows[0]!.id}) RETURNING id`.execute(db);
    const owner = team.rows[0]!.id;
    await sql`INSERT INTO servers (id, team_id, name, webhook_secret) VALUES ('benchlogs001', ${owner}, 'Bench', 'x')`.execute(db);
    const dataset = await sql<{ id: string }>`INSERT INTO log_datasets (server_id, name, retention_days) VALUES ('benchlogs001', ${datasetName}, 30) RETURNING id`.execute(db);
    return await run({ db, url, owner, datasetId: dataset.rows[0]!.id });
  } finally {
    await handle.close();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName}`);
    await admin.end();
  }
}

/**
 * Ingest: Stash (key lookup, parsing, validation, dataset lookup, volume check, one insert; the counts
 * are written once a second) against a bare pg loop inserting the same rows into a copy of the same
 * table, rounds alternating, medians reported.
 */
export async function benchLogIngest(stashPort: number, logKeys: string[], seconds: number, rounds: number): Promise<LogIngestResult> {
  return withLogDatabase("stash_bench_log_ref", "default", async ({ db, url, datasetId }) => {
    const now = new Date();
    await ensureLogPartitions(db, now, new Date(now.getTime() + 86_400_000));
    const batch = 100;
    const clients = 8;
    const stash: number[] = [];
    const reference: number[] = [];
    for (let round = 0; round < rounds; round++) {
      reference.push(await referenceIngest(url, datasetId, batch, clients, seconds));
      stash.push(await stashIngest(stashPort, logKeys, batch, clients, seconds));
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return { batch, clients, stash: Math.round(med(stash)), reference: Math.round(med(reference)), ratio: round(med(stash) / med(reference), 2) };
  });
}

/**
 * Search: `rows` entries spread over the last 24 hours (day partitions, indexes in place as ingest
 * leaves them), then the portal's query — a 24 h window, text in the message and a metadata filter —
 * timed one after another with different values.
 */
export async function benchLogSearch(rows: number, samples: number): Promise<LogSearchResult> {
  return withLogDatabase("stash_bench_log_search", "economy", async ({ db, owner, datasetId }) => {
    const now = new Date();
    await ensureLogPartitions(db, new Date(now.getTime() - 86_400_000), now);
    const started = performance.now();
    await sql`
      INSERT INTO log_entries (ts, dataset_id, level, resource, message, metadata)
      SELECT now() - (g * interval '86399 seconds' / ${rows}), ${datasetId}::uuid,
             (ARRAY['info','info','info','warn','error'])[1 + g % 5],
             (ARRAY['qb-banking','ox_inventory','txAdmin','qb-phone','esx_policejob'])[1 + g % 5],
             'Player ' || (g % 977) || ' paid $' || (g % 5000) || ' to account ' || (g % 131) || CASE WHEN g % 1000 = 7 THEN ' during a robbery' ELSE '' END,
             jsonb_build_object('citizenid', 'CID' || (g % 977), 'amount', g % 5000)
      FROM generate_series(1, ${rows}) AS g`.execute(db);
    await sql`ANALYZE log_entries`.execute(db);
    const loadSeconds = round((performance.now() - started) / 1000, 1);
    const timeQueries = async (offset: number) => {
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const query = new URLSearchParams([["q", "robbery"], ["meta", `citizenid=CID${(offset + i * 37) % 977}`], ["from", new Date(now.getTime() - 86_400_000).toISOString()]]);
        const t0 = performance.now();
        await searchLogs(db, { teamId: owner }, logFiltersOf(query), { limit: 100 });
        times.push(performance.now() - t0);
      }
      return { p50: round(percentile(times, 50), 1), p99: round(percentile(times, 99), 1) };
    };
    const fresh = await timeQueries(0);
    // What autovacuum does to an insert-only partition as it fills (PostgreSQL 13+): sets the pages'
    // visibility, so searches stop writing hint bits. Entries logged over a day have had it; one
    // bulk load has not.
    await sql`VACUUM ANALYZE log_entries`.execute(db);
    const settled = await timeQueries(500);
    return { rows, loadSeconds, fresh, ...settled };
  });
}

/**
 * Live tail: the Logs page's event stream held open while entries are posted at random moments, each
 * timed from the ingest's 200 to its `entry` event (what a person watching the page waits).
 */
export async function benchLogTail(port: number, cookie: string, logKey: string, samples: number): Promise<LogTailResult> {
  const seen = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get({ host: "127.0.0.1", port, path: "/logs/tail?dataset=tail", headers: { cookie, accept: "text/event-stream" } }, resolve).on("error", reject);
  });
  if (stream.statusCode !== 200) throw new Error(`live tail answered ${stream.statusCode}`);
  let buffered = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf("\n\n")) !== -1) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = /^data: (.*)$/m.exec(event)?.[1];
      if (!data) continue;
      const message = (JSON.parse(data) as { message: string }).message;
      seen.set(message, performance.now());
      waiting.get(message)?.();
    }
  });
  try {
    const delays: number[] = [];
    for (let i = 0; i < samples; i++) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 500));
      const message = `tail probe ${i} ${Date.now()}`;
      const arrived = new Promise<void>((resolve) => waiting.set(message, resolve));
      const body = JSON.stringify({ message, dataset: "tail" });
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port, path: "/api/logs", method: "POST", headers: { "content-type": "application/json", "x-api-key": logKey, "content-length": Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        });
        req.on("error", reject);
        req.end(body);
      });
      const acknowledged = performance.now();
      if (status !== 200) throw new Error(`log ingest answered ${status}`);
      await Promise.race([arrived, new Promise((_, reject) => setTimeout(() => reject(new Error("a tailed entry did not arrive within 10 s")), 10_000))]);
      delays.push(seen.get(message)! - acknowledged);
    }
    return { samples, p50: round(percentile(delays, 50), 0), max: round(Math.max(...delays), 0) };
  } finally {
    stream.destroy();
  }
}
