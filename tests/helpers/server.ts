import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { loadConfig } from "../../app/services/platform/env.server.ts";
import { startServer, type StartedServer } from "../../server.ts";
import { loadAppFromSource } from "./app-source.ts";
import { copyPgliteTemplate, createTestDatabase } from "./test-db.ts";

export interface TestServer extends StartedServer {
  dataDir: string;
  /** fetch relative to the server's base URL. */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  /** Stops the server as an operator would, keeping its data directory and database; `close` also removes them. */
  stop(): Promise<void>;
  /**
   * Runs a background job (BACKGROUND_JOBS) now and resolves when it ends. Test servers run in
   * JOBS_MODE=manual: no job runs by itself, so no test races the server's own clocks.
   */
  runJob(name: string): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface TestServerOptions {
  /**
   * Serve a data directory and database prepared beforehand (e.g. by the CLI), as `npm start` would:
   * the embedded database is then PGlite on disk under `dataDir/db` unless `database.url` is set.
   */
  prepared?: { dataDir: string; database: Awaited<ReturnType<typeof createTestDatabase>>; port: number };
  /** Load the app from this app-source server (app-source.ts) instead of where the run's setup says. */
  appSource?: string;
}

/**
 * A real Stash on an ephemeral port: the app (the production build, or its sources when the build is
 * stale: setup-source.ts) behind the real Express host,
 * a fresh database (PGlite, or PostgreSQL when TEST_DATABASE_URL is set) and a temp data dir.
 */
export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.prepared?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "stash-test-"));
  const database = options.prepared?.database ?? (await createTestDatabase({ migrated: true }));
  // On PGlite the server opens a copy of the run's migrated data directory under dataDir/db; a test
  // that names its own DATA_DIR (a small tmpfs, say) keeps the database in memory, out of its way.
  const onPgliteCopy = !options.prepared && !database.url && !env.DATA_DIR && copyPgliteTemplate(dataDir);
  const port = options.prepared?.port ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: String(port),
    APP_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    JOBS_MODE: "manual",
    ...(database.url ? { DATABASE_URL: database.url, DATABASE_POOL_MAX: "20" } : {}),
    ...env,
  });
  const appSource = options.appSource ?? inject("appSource");
  const loaded = appSource === "build" ? undefined : { entry: await loadAppFromSource(appSource) };
  const server = await startServer({ config, inMemoryDb: !database.url && !options.prepared && !onPgliteCopy }, loaded);
  return {
    ...server,
    dataDir,
    request: (pathname, init) => fetch(new URL(pathname, base), init),
    stop: () => server.close(),
    runJob: (name) => server.jobs.runNow(name),
    async close() {
      await server.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
