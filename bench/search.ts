import { createHash } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { createDb } from "../db/index.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { searchFiles, type SearchQuery } from "../app/services/files/search.server.ts";
import { percentile, round } from "./lib.ts";
import { parseServerId } from "../app/services/platform/ids.server.ts";

export interface SearchResult {
  rows: number;
  loadSeconds: number;
  kinds: Array<{ kind: string; p50: number; p99: number }>;
  p50: number;
  p99: number;
}

const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = "stash_bench_search";

/**
 * 1M file rows (4 servers, the measured one holds 400k) generated in SQL, indexes built after the
 * load as a restore would, then the search service's own queries timed one after another.
 */
export async function benchSearch(rows: number, samplesPerKind: number): Promise<SearchResult> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME}`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  const handle = await createDb({ databaseUrl: url.toString(), poolMax: 4 });
  try {
    const db = handle.db;
    await migrateToLatest(db);
    const started = performance.now();
    const indexes = await sql<{ indexname: string; indexdef: string }>`
      SELECT indexname, indexdef FROM pg_indexes
      WHERE tablename = 'files' AND indexname NOT IN (SELECT conname FROM pg_constraint)`.execute(db);
    for (const index of indexes.rows) await sql.raw(`DROP INDEX ${index.indexname}`).execute(db);
    const user = await sql<{ id: string }>`INSERT INTO users (email, display_name) VALUES ('bench@example.com', 'Bench') RETURNING id`.execute(db);
    const team = await sql<{ id: string }>`INSERT INTO teams (name, owner_user_id) VALUES ('Bench', ${user.rows[0].id}) RETURNING id`.execute(db);
    const teamId = team.rows[0].id;
    const servers = ["benchbig0001", "benchother02", "benchother03", "benchother04"];
    for (const id of servers) {
      await sql`INSERT INTO servers (id, team_id, name, webhook_secret) VALUES (${id}, ${teamId}, ${id}, ${id})`.execute(db);
    }
    await sql`
      INSERT INTO files (server_id, team_id, storage_key, filename, original_filename, category, mime_type,
                         size_bytes, sha256, is_public, player_name, player_identifier, metadata, created_at)
      SELECT CASE WHEN g % 10 < 4 THEN 'benchbig0001' ELSE 'benchother0' || (2 + g % 3) END,
             ${teamId}::uuid,
             'k/' || g,
             md5(g::text) || '.webp',
             'screenshot_' || g || '.png',
             (ARRAY['screenshots','photos','mdt','evidence','videos','other'])[1 + g % 6],
             'image/webp',
             50000 + g % 100000,
             md5(g::text || 'x'),
             true,
             'Player ' || (g % 5000),
             'license:' || md5((g % 5000)::text),
             jsonb_build_object('job', (ARRAY['police','ems','mechanic','civ'])[1 + g % 4], 'case', g % 20000),
             now() - (g || ' seconds')::interval * 30
      FROM generate_series(1, ${rows}) AS g`.execute(db);
    for (const index of indexes.rows) await sql.raw(index.indexdef).execute(db);
    // A live table's visibility map is kept current by autovacuum (insert-triggered since PostgreSQL 13);
    // without it a freshly loaded table makes every count read the heap, which production does not.
    await sql`VACUUM ANALYZE files`.execute(db);
    const loadSeconds = round((performance.now() - started) / 1000, 1);

    const base: SearchQuery = { serverId: parseServerId("benchbig0001")!, sort: "desc", limit: 50, offset: 0, page: 1 };
    const kinds: Array<[string, (i: number) => SearchQuery]> = [
      ["latest page", (i) => ({ ...base, offset: (i % 5) * 50 })],
      ["category", (i) => ({ ...base, category: ["screenshots", "photos", "mdt"][i % 3] })],
      ["player_identifier", (i) => ({ ...base, playerIdentifier: `license:${md5Like(i * 10)}` })],
      ["filename substring", (i) => ({ ...base, filename: `shot_${1000 + i * 37}` })],
      ["date range", (i) => ({ ...base, from: new Date(Date.now() - (i + 2) * 86_400_000), to: new Date(Date.now() - (i + 1) * 86_400_000) })],
      ["metadata", (i) => ({ ...base, metadata: { case: (i * 13) % 20000 } })],
    ];
    const all: number[] = [];
    const results: SearchResult["kinds"] = [];
    for (const [kind, make] of kinds) {
      await searchFiles(db, make(0));
      const times: number[] = [];
      for (let i = 0; i < samplesPerKind; i++) {
        const t = performance.now();
        await searchFiles(db, make(i));
        times.push(performance.now() - t);
      }
      all.push(...times);
      results.push({ kind, p50: round(percentile(times, 50)), p99: round(percentile(times, 99)) });
    }
    return { rows, loadSeconds, kinds: results, p50: round(percentile(all, 50)), p99: round(percentile(all, 99)) };
  } finally {
    await handle.close();
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME}`);
    await admin.end();
  }
}

/** The md5 hex that the SQL generator used for a player number (same function, computed locally). */
function md5Like(n: number): string {
  return createHash("md5").update(String(n % 5000)).digest("hex");
}
