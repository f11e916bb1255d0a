/** What vitest's global setups (setup-build.ts, setup-source.ts) provide to every test worker through `inject`. */
declare module "vitest" {
  export interface ProvidedContext {
    /** A database on TEST_DATABASE_URL's PostgreSQL, migrated once per run; null on PGlite. */
    postgresTemplate: string | null;
    /** A PGlite data directory migrated once per run, copied for each test server on PGlite; null on PostgreSQL. */
    pgliteTemplate: string | null;
    /** Where test servers load the app from: "build", or the URL of the run's app-source server (app-source.ts). */
    appSource: string;
  }
}

export {};
