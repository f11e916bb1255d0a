import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from "kysely";
import pg from "pg";
import { markIfUnavailable } from "./connection-errors.ts";
import { createPGliteDialect } from "./pglite-dialect.ts";
import { PGLITE_V8_FLAGS, pgliteStartParams, seedFromTemplate } from "./pglite-settings.ts";
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

/** Distinct statements a connection keeps prepared; later ones run unnamed (one-off IN lists and the like). */
const PREPARED_PER_CONNECTION = 500;
/** SQLSTATE feature_not_supported, as PostgreSQL answers a prepared statement whose result columns a migration changed. */
const RESULT_TYPE_CHANGED = /cached plan must not change result type/;

/**
 * Every statement a connection runs is prepared on it once, by its text, and executed by name after:
 * PostgreSQL then parses and plans it once per connection instead of on every call, as postgres.js
 * and pgx do by default — planning was most of the database's work for the script API's short
 * queries (the key lookup: 10k/s unnamed, 54k/s prepared, decision 083).
 */
class PreparedStatements {
  private readonly names = new Map<string, string>();
  /** Never reused: pg refuses a name it has already prepared with another text. */
  private made = 0;

  constructor(private readonly client: pg.PoolClient) {}

  async query(text: string, values: unknown[] | undefined): Promise<pg.QueryResult> {
    // Without parameters it may be several statements (pg-boss, migrations), which only run unnamed.
    if (!values?.length) return this.client.query(text, values);
    let name = this.names.get(text);
    if (!name && this.names.size < PREPARED_PER_CONNECTION) {
      name = `stash_${++this.made}`;
      this.names.set(text, name);
    }
    if (!name) return this.client.query(text, values);
    try {
      return await this.client.query({ name, text, values });
    } catch (error) {
      // A migration another instance ran changed a prepared query's columns (`select *`): run it afresh.
      if (!(error instanceof Error && RESULT_TYPE_CHANGED.test(error.message))) throw error;
      this.names.delete(text);
      return this.client.query(text, values);
    }
  }
}

/** A database that does not answer a connection attempt within this is reported unavailable (503), not waited on. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The pool as Kysely sees it, marking errors that mean "the database is gone" (connect refused,
 * connection terminated, admin shutdown) so the HTTP layer answers 503 instead of 500.
 */
function markingPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect().catch((error: unknown) => {
        throw markIfUnavailable(error);
      });
      let facade = wrapped.get(client);
      if (!facade) {
        const prepared = new PreparedStatements(client);
        facade = {
          query: ((...args: [string | object, unknown[]]) => {
            const [text, values] = args;
            // A cursor (Kysely's stream()) is passed as is and reports its errors itself.
            if (typeof text !== "string") return client.query(...(args as [never, unknown[]]));
            return prepared.query(text, values).catch((error: unknown) => Promise.reject(markIfUnavailable(error)));
          }) as PostgresPoolClient["query"],
          release: () => client.release(),
        };
        wrapped.set(client, facade);
      }
      return facade;
    },
    end: () => pool.end(),
  };
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
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolMax ?? 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    // Without a listener, an idle client's error (a restart, a killed backend) would crash the process.
    pool.on("error", (error) => options.onConnectionError?.(error));
    // The pool listens only while a client is idle; a checked-out one (a transaction, the sweep's
    // advisory lock) that loses its connection would emit an unhandled 'error' and end the process.
    // Its holder learns of the failure from its next query, so this listener only has to exist.
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: markingPool(pool) }) });
    return { db, kind: "postgresql", close: () => db.destroy() };
  }
  const unlock = options.pgliteDir ? lockDataDirectory(options.pgliteDir) : () => {};
  try {
    if (options.pgliteDir) seedFromTemplate(options.pgliteDir);
    // Before PGlite compiles its WebAssembly: only this process's embedded database runs WebAssembly.
    v8.setFlagsFromString(PGLITE_V8_FLAGS);
    // Loaded only when used: importing PGlite costs ~40 MB of memory a PostgreSQL deployment never needs.
    const [{ PGlite }, { pg_trgm }] = await Promise.all([import("@electric-sql/pglite"), import("@electric-sql/pglite/contrib/pg_trgm")]);
    const pglite = await PGlite.create({
      dataDir: options.pgliteDir,
      startParams: pgliteStartParams(PGlite),
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
