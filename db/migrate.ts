import { Migrator, sql } from "kysely";
import type { Db } from "./index.ts";
import { migrations } from "./migrations/index.ts";

// Any fixed 64-bit number works; it only has to be the same in every instance.
const MIGRATION_LOCK_ID = 7_411_903_202_611n;

export interface MigrationReport {
  applied: string[];
}

/**
 * Brings the schema up to date. Instances starting together serialise on an advisory lock
 * held for the whole run, so exactly one applies each migration and the rest find nothing to do.
 */
export async function migrateToLatest(db: Db): Promise<MigrationReport> {
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK_ID})`.execute(conn);
    try {
      const migrator = new Migrator({ db: conn, provider: { getMigrations: async () => migrations } });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error;
      return { applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName) };
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_ID})`.execute(conn);
    }
  });
}
