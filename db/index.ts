import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { createPGliteDialect } from "./pglite-dialect.ts";
import type { Database } from "./schema.ts";

export type Db = Kysely<Database>;
export type DbKind = "pglite" | "postgresql";

export interface DbHandle {
  db: Db;
  kind: DbKind;
  close(): Promise<void>;
}

const INT8 = 20;
const NUMERIC = 1700;
// Byte counts and totals fit comfortably in a double; strings would leak into every caller.
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(NUMERIC, (v) => Number(v));

export class DatabaseInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database at ${dir} is in use by another Stash process (pid ${pid}). ` +
        `Stop that process first, or set DATABASE_URL to use PostgreSQL, which many processes can share.`,
    );
    this.name = "DatabaseInUseError";
  }
}

function isRunning(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** PGlite is single-process: a lock file keeps a second process out of a data directory in use. */
function lockDataDirectory(dir: string) {
  fs.mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, "stash.lock");
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const holder = Number(fs.readFileSync(lockFile, "utf8"));
    if (holder && holder !== process.pid && isRunning(holder)) throw new DatabaseInUseError(dir, holder);
    fs.writeFileSync(lockFile, String(process.pid));
  }
  return () => fs.rmSync(lockFile, { force: true });
}

export interface CreateDbOptions {
  /** A PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; `undefined` keeps it in memory (tests). */
  pgliteDir?: string;
  poolMax?: number;
  /** Told about errors of idle pooled connections (a database restart, say); the pool replaces them. */
  onConnectionError?: (error: Error) => void;
}

export async function createDb(options: CreateDbOptions): Promise<DbHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolMax ?? 10 });
    // Without a listener, an idle client's error (a restart, a killed backend) would crash the process.
    pool.on("error", (error) => options.onConnectionError?.(error));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: "postgresql", close: () => db.destroy() };
  }
  const unlock = options.pgliteDir ? lockDataDirectory(options.pgliteDir) : () => {};
  try {
    // Loaded only when used: importing PGlite costs ~40 MB of memory a PostgreSQL deployment never needs.
    const [{ PGlite }, { pg_trgm }] = await Promise.all([import("@electric-sql/pglite"), import("@electric-sql/pglite/contrib/pg_trgm")]);
    const pglite = await PGlite.create({
      dataDir: options.pgliteDir,
      extensions: { pg_trgm },
      parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v) },
    });
    const db = new Kysely<Database>({ dialect: createPGliteDialect(pglite) });
    return {
      db,
      kind: "pglite",
      async close() {
        await db.destroy();
        await pglite.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
