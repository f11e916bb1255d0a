/**
 * The Express-free host: loads the app's one server entry (server/app.ts, built to
 * build/server/index.js; through Vite in development), serves it over node:http and shuts down
 * gracefully. It imports no app code itself (docs/decisions/069).
 */
import http, { type Server as HttpServer } from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { AppContext } from "./app/services/app-context.server.ts";
import type * as AppEntryModule from "./server/app.ts";
import type { Config } from "./server/app.ts";
import type { JobQueue } from "./app/services/platform/job-queue.server.ts";

type AppEntry = typeof AppEntryModule;

const SHUTDOWN_GRACE_MS = 10_000;
const BUILD_PATH = path.resolve("build/server/index.js");

export interface StartServerOptions {
  config: Config;
  inMemoryDb?: boolean;
  /** Shut down on SIGTERM/SIGINT (the CLI entry point); tests close the server themselves. */
  handleSignals?: boolean;
}

export interface StartedServer {
  url: string;
  port: number;
  ctx: AppContext;
  /** Writes the download counters gathered in memory to usage_daily now. */
  flushUsage(): Promise<void>;
  /** This instance's worker on the shared job queue (background-jobs.server.ts). */
  jobs: JobQueue;
  close(): Promise<void>;
}

/** The app's server entry, loaded by the host or handed in (tests load it from source through Vite). */
export interface LoadedApp {
  entry: AppEntry;
  devMiddleware?: NonNullable<Parameters<AppEntry["createStash"]>[0]["devMiddleware"]>;
  closeDev?: () => Promise<void>;
}

async function loadApp(development: boolean): Promise<LoadedApp> {
  if (!development) return { entry: (await import(pathToFileURL(BUILD_PATH).href)) as AppEntry };
  const vite = await import("vite");
  const devServer = await vite.createServer({ server: { middlewareMode: true } });
  return {
    entry: (await devServer.ssrLoadModule("./server/app.ts")) as AppEntry,
    devMiddleware: devServer.middlewares,
    closeDev: () => devServer.close(),
  };
}

export async function startServer(options: StartServerOptions, loaded?: LoadedApp): Promise<StartedServer> {
  const { config } = options;
  const { entry, devMiddleware, closeDev } = loaded ?? (await loadApp(config.NODE_ENV === "development"));
  const stash = await entry.createStash({ config, inMemoryDb: options.inMemoryDb, devMiddleware });

  const sockets = new Set<Socket>();
  // Node's default requestTimeout (300 s) cut uploads over slow links; a stalled connection is
  // closed by the idle timeout instead, however long an upload that keeps moving takes.
  const requestTimeout = config.REQUEST_TIMEOUT_S * 1000;
  const server: HttpServer = http.createServer(
    { requestTimeout, connectionsCheckingInterval: Math.min(30_000, Math.max(500, requestTimeout / 4)) },
    stash.handle,
  );
  server.timeout = config.IDLE_TIMEOUT_S * 1000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  const host = config.HOST === "0.0.0.0" || config.HOST === "::" ? "localhost" : config.HOST;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Keep-alive connections become idle as their last response ends; close each as it does.
      const reaper = setInterval(() => server.closeIdleConnections(), 100);
      const timer = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, SHUTDOWN_GRACE_MS);
      await drained;
      clearInterval(reaper);
      clearTimeout(timer);
      await stash.close();
      await closeDev?.();
    })());

  if (options.handleSignals) {
    // `on`, not `once`: proper-lockfile's signal-exit re-raises a signal when it is the last listener left.
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      process.on(signal, () => {
        stash.ctx.logger.info({ signal }, "shutting down: no new connections, finishing in-flight requests");
        close().then(
          () => process.exit(0),
          (error) => {
            stash.ctx.logger.error({ err: error }, "shutdown failed");
            process.exit(1);
          },
        );
      });
    }
  }

  stash.ctx.logger.info({ url: `http://${host}:${port}`, db: stash.ctx.dbKind, storage: stash.ctx.blobs.kind }, "Stash is listening");
  return { url: `http://${host}:${port}`, port, ctx: stash.ctx, flushUsage: stash.flushUsage, jobs: stash.jobs, close };
}

const isEntryPoint = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isEntryPoint) {
  // The same default as the app's configuration (NODE_ENV unset means development).
  const loaded = await loadApp((process.env.NODE_ENV ?? "development") === "development");
  try {
    await startServer({ config: loaded.entry.loadConfig(), handleSignals: true }, loaded);
  } catch (error) {
    if (error instanceof loaded.entry.ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
