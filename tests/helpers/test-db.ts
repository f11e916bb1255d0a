import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";

export interface TestDatabase {
  /** PostgreSQL connection string, or undefined: the server runs on PGlite. */
  url?: string;
  drop(): Promise<void>;
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function dropPostgresDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, async (client) => {
    // pg's pool.end() resolves before its sockets have closed; FORCE would kill those
    // connections mid-goodbye and surface as an uncaught "terminating connection" error.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "55006" || attempt >= 20) {
          await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
}

/** A fresh database on TEST_DATABASE_URL's PostgreSQL, empty or copied from a template. */
export async function createPostgresDatabase(adminUrl: string, template?: string): Promise<{ name: string; url: string }> {
  const name = `stash_test_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, (client) => client.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/**
 * With TEST_DATABASE_URL set, a database of its own on that PostgreSQL, dropped afterwards: empty,
 * or with `migrated` a copy of the run's migrated template (CREATE DATABASE … TEMPLATE), so a test
 * server starts without running a migration. Without it the server runs on PGlite (see
 * `copyPgliteTemplate`).
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { url: undefined, drop: async () => {} };
  const template = options.migrated ? inject("postgresTemplate") : null;
  const { name, url } = await createPostgresDatabase(adminUrl, template ?? undefined);
  return { url, drop: () => dropPostgresDatabase(adminUrl, name) };
}

/** Copies the run's migrated PGlite data directory to `dataDir/db`, where the server opens it; false when there is none. */
export function copyPgliteTemplate(dataDir: string): boolean {
  const template = inject("pgliteTemplate");
  if (!template) return false;
  fs.cpSync(template, path.join(dataDir, "db"), { recursive: true });
  return true;
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);
