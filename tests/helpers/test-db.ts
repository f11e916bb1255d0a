import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * With TEST_DATABASE_URL set, each test server gets a database of its own on that PostgreSQL,
 * dropped afterwards; without it, the server runs on an in-memory PGlite.
 */
export async function createTestDatabase(): Promise<{ url?: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { url: undefined, drop: async () => {} };
  const name = `stash_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // pg's pool.end() resolves before its sockets have closed; FORCE would kill those
        // connections mid-goodbye and surface as an uncaught "terminating connection" error.
        for (let attempt = 0; ; attempt++) {
          try {
            await client.query(`DROP DATABASE IF EXISTS ${name}`);
            break;
          } catch (error) {
            if ((error as { code?: string }).code !== "55006" || attempt >= 20) {
              await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
              break;
            }
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      } finally {
        await client.end();
      }
    },
  };
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);
