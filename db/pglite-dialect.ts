import type { PGlite } from "@electric-sql/pglite";
import {
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
} from "kysely";

/**
 * Presents one PGlite instance as a `pg`-style pool so Kysely's own PostgresDialect
 * (query compiler, introspection, transactions) runs on it unchanged. PGlite has a
 * single connection, so `connect()` hands it out one holder at a time.
 */
class PGlitePool implements PostgresPool {
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly pglite: PGlite) {}

  async connect(): Promise<PostgresPoolClient> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const previous = this.queue;
    this.queue = previous.then(() => held);
    await previous;
    const pglite = this.pglite;
    let released = false;
    return {
      async query<R>(sqlText: unknown, parameters?: ReadonlyArray<unknown>) {
        const text = String(sqlText);
        const result = parameters?.length ? await pglite.query<R>(text, parameters as unknown[]) : await queryOrScript<R>(pglite, text);
        const command = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "SELECT";
        return {
          command: command as PostgresQueryResult<R>["command"],
          rowCount: result.affectedRows ?? result.rows.length,
          rows: result.rows,
        };
      },
      release() {
        if (released) return;
        released = true;
        release();
      },
    } as PostgresPoolClient;
  }

  async end(): Promise<void> {
    await this.queue;
  }
}

/**
 * A parameterless text may be a script of several statements (pg-boss sends its schema and each
 * locked step as one); PostgreSQL's simple protocol runs those, PGlite's `query` does not.
 */
async function queryOrScript<R>(pglite: PGlite, text: string): Promise<{ rows: R[]; affectedRows?: number }> {
  try {
    return await pglite.query<R>(text);
  } catch (error) {
    if ((error as { code?: string }).code !== "42601" || !/multiple commands/.test((error as Error).message)) throw error;
    const results = await pglite.exec(text);
    const last = results.at(-1);
    return { rows: (last?.rows ?? []) as R[], affectedRows: last?.affectedRows };
  }
}

export function createPGliteDialect(pglite: PGlite) {
  return new PostgresDialect({ pool: new PGlitePool(pglite) });
}
