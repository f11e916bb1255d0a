import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
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

/**
 * Integration tests serve the production build; build it when it is missing or older than any
 * source, so a single-file run never pairs new code with stale built routes.
 */
function buildWhenStale() {
  const built = Math.min(...BUILT.map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0)));
  if (built < Math.max(...SOURCES.map(newestChange))) {
    execFileSync("npm", ["run", "build"], { stdio: "inherit" });
  }
}

/**
 * Migrates one database for the whole run; every test server starts on a copy of it instead of
 * running the migrations itself: PostgreSQL copies it with CREATE DATABASE … TEMPLATE, PGlite's data
 * directory is copied file by file (test-db.ts).
 */
async function migrateTemplate(): Promise<{ postgres: string | null; pglite: string | null; drop(): Promise<void> }> {
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

export default async function setup(project: TestProject) {
  buildWhenStale();
  const template = await migrateTemplate();
  project.provide("postgresTemplate", template.postgres);
  project.provide("pgliteTemplate", template.pglite);
  return () => template.drop();
}
