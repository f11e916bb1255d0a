import { type Migration, Migrator, sql } from "kysely";
import type { Db } from "./index.ts";
import { migrations as known } from "./migrations/index.ts";
import { type StartupLog, withStartupLock } from "./startup-lock.ts";

// Any fixed 64-bit number works; it only has to be the same in every instance.
const MIGRATION_LOCK_ID = 7_411_903_202_611n;
/** Long migrations on large tables can take minutes; an instance waits this long for another's run by default. */
export const DEFAULT_STARTUP_LOCK_TIMEOUT_MS = 10 * 60_000;

export interface MigrationReport {
  applied: string[];
  /** Migrations the database has that this build does not know: a newer instance ran them (a rollout). */
  unknown: string[];
}

export interface MigrateOptions {
  log?: StartupLog;
  /** How long to wait for another instance's run; DEFAULT_STARTUP_LOCK_TIMEOUT_MS when absent. */
  lockTimeoutMs?: number;
  /** The migrations to apply; this build's own when absent (tests add one to play a newer release). */
  migrations?: Record<string, Migration>;
}

async function executedMigrations(conn: Db): Promise<string[]> {
  const table = await sql<{ present: boolean }>`SELECT to_regclass('kysely_migration') IS NOT NULL AS present`.execute(conn);
  if (!table.rows[0]?.present) return [];
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(conn);
  return rows.map((r) => r.name);
}

/**
 * Brings the schema up to date. Instances starting together serialise on an advisory lock held for
 * the whole run (bounded and logged: db/startup-lock.ts), so exactly one applies each migration and
 * the rest find nothing to do. A database a newer release already migrated further is left as it is:
 * migrations only add (docs/decisions/092), so this build serves on it while the rollout replaces it.
 */
export async function migrateToLatest(db: Db, options: MigrateOptions = {}): Promise<MigrationReport> {
  const migrations = options.migrations ?? known;
  const lock = { key: MIGRATION_LOCK_ID, name: "migration", timeoutMs: options.lockTimeoutMs ?? DEFAULT_STARTUP_LOCK_TIMEOUT_MS, log: options.log };
  return db.connection().execute((conn) =>
    withStartupLock(conn, lock, async () => {
      const executed = await executedMigrations(conn);
      const unknown = executed.filter((name) => !(name in migrations));
      if (unknown.length) {
        options.log?.warn({ unknown }, "the database schema is newer than this build; serving on it without migrating");
        return { applied: [], unknown };
      }
      // Nothing to apply (every start but the first): Kysely's Migrator would still read every
      // table's columns to find its own two tables, over a second of CPU on the embedded database.
      if (Object.keys(migrations).every((name) => executed.includes(name))) return { applied: [], unknown: [] };
      const migrator = new Migrator({ db: conn, provider: { getMigrations: async () => migrations } });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error;
      return { applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName), unknown: [] };
    }),
  );
}
