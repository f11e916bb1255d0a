/**
 * What a test run prepares once, in vitest's main process, for the workers (vitest.config.ts names
 * which project uses which): the production build when a project needs it, and one migrated
 * database every test server starts from a copy of.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb } from "../../db/index.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import { createPostgresDatabase, dropPostgresDatabase } from "./test-db.ts";

const SOURCES = ["app", "server", "db", "storage", "server.ts", "vite.config.ts", "react-router.config.ts", "package.json"];
const BUILT = ["build/server/index.js", "build/host/server.mjs"];

function newestChange(entry: string): number {
  // Unit tests beside the code are not part of the build: editing one needs no rebuild.
  if (!fs.existsSync(entry) || /\.test\.tsx?$/.test(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(entry).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stat.mtimeMs);
}

/** Whether build/ holds every source as it is now. */
export function buildIsCurrent(): boolean {
  const built = Math.min(...BUILT.map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0)));
  return built >= Math.max(...SOURCES.map(newestChange));
}

/** Builds when build/ is missing or older than any source, so no test pairs new code with stale built routes. */
export function buildWhenStale(): void {
  if (!buildIsCurrent()) execFileSync("npm", ["run", "build"], { stdio: "inherit" });
}

export interface DatabaseTemplate {
  postgres: string | null;
  pglite: string | null;
  drop(): Promise<void>;
}

/**
 * Migrates one database for the whole run; every test server starts on a copy of it instead of
 * running the migrations itself: PostgreSQL copies it with CREATE DATABASE … TEMPLATE, PGlite's data
 * directory is copied file by file (test-db.ts).
 */
export async function migrateTemplate(): Promise<DatabaseTemplate> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const { name, url } = await createPostgresDatabase(adminUrl);
    const handle = await createDb({ databaseUrl: url, poolMax: 1 });
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    return { postgres: name, pglite: null, drop: () => dropPostgresDatabase(adminUrl, name) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-pglite-template-"));
  const handle = await createDb({ pgliteDir: path.join(dir, "db") });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
  return { postgres: null, pglite: path.join(dir, "db"), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}
