import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/index.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import { migrations } from "../../db/migrations/index.ts";
import { createTestDatabase, usingPostgres } from "../helpers/test-db.ts";

describe("migrations", () => {
  // A fresh embedded database compiles PGlite's WASM first, which a busy 2-core machine stretches past the default timeout.
  it("bring an empty database to the latest schema, and a second run finds nothing to do", { timeout: 90_000 }, async () => {
    const database = await createTestDatabase();
    const handle = await createDb({ databaseUrl: database.url });
    try {
      const first = await migrateToLatest(handle.db);
      expect(first.applied).toEqual(Object.keys(migrations));
      expect((await migrateToLatest(handle.db)).applied).toEqual([]);
      const tables = await sql<{ table_name: string }>`
        SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`.execute(handle.db);
      expect(tables.rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining([
          "users", "identities", "sessions", "auth_tokens", "servers", "retention_rules", "api_keys", "upload_grants",
          "files", "file_variants", "subscriptions", "storage_addons", "account_usage", "audit_logs", "usage_daily", "stripe_events",
        ]),
      );
    } finally {
      await handle.close();
      await database.drop();
    }
  });

  it.runIf(usingPostgres)("let instances that start together apply each migration exactly once", async () => {
    const database = await createTestDatabase();
    const instances = await Promise.all(Array.from({ length: 4 }, () => createDb({ databaseUrl: database.url, poolMax: 2 })));
    try {
      const reports = await Promise.all(instances.map((i) => migrateToLatest(i.db)));
      const applied = reports.flatMap((r) => r.applied);
      expect(applied.sort()).toEqual(Object.keys(migrations).sort());
      const recorded = await sql<{ n: number }>`SELECT count(*)::int AS n FROM kysely_migration`.execute(instances[0].db);
      expect(recorded.rows[0].n).toBe(Object.keys(migrations).length);
    } finally {
      await Promise.all(instances.map((i) => i.close()));
      await database.drop();
    }
  });
});
