import { randomBytes } from "node:crypto";
import http, { type IncomingMessage, type Server as HttpServer } from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import proxyAddr from "proxy-addr";
import type { ServerBuild } from "react-router";
import { recordRequest, requestIdOf } from "./app/http/access-log.server.ts";
import { createFilePathHandler } from "./app/http/file-path.server.ts";
import { settleUnreadBody } from "./app/http/unread-body.server.ts";
import { createAppContext, type AppContext } from "./app/services/app-context.server.ts";
import { applyCors, CORS_PATHS } from "./app/services/cors.server.ts";
import { CROSS_SITE_MESSAGE, isSameOrigin } from "./app/services/csrf.server.ts";
import { DownloadCounter } from "./app/services/download-usage.server.ts";
import { enableFileBodyCache } from "./app/services/file-lookup.server.ts";
import { canReadPrivateFile } from "./app/services/private-access.server.ts";
import { ConfigError, loadConfig, type Config } from "./app/services/env.server.ts";
import { routeLabel } from "./app/services/metrics.server.ts";
import { startBackgroundJobs } from "./app/services/background-jobs.server.ts";
import type { JobQueue } from "./app/services/jobs/job-queue.server.ts";

const SHUTDOWN_GRACE_MS = 10_000;
const COMPRESSIBLE = /^(text\/(html|css|javascript|plain|xml)|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;
/** Resource routes that carry file bytes: never compressed, never given the page CSP. */
const FILE_PATHS = /^\/(api\/download|api\/media)(\/|$)/;
/** The /f/ CDN path, answered by the file handler before the Express app is involved. */
const CDN_PATH = /^\/f(\/|\?|$)/;

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

async function loadBuild(config: Config, app: express.Express): Promise<() => Promise<ServerBuild>> {
  if (config.NODE_ENV === "development") {
    const vite = await import("vite");
    const devServer = await vite.createServer({ server: { middlewareMode: true } });
    app.use(devServer.middlewares);
    return () => devServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  }
  const buildPath = path.resolve("build/server/index.js");
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false }));
  app.use(express.static("build/client", { maxAge: "1h", index: false }));
  return async () => build;
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

export function createExpressApp(ctx: AppContext) {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", ctx.config.TRUST_PROXY === "false" ? false : ctx.config.TRUST_PROXY);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const requestId = requestIdOf(req.headers["x-request-id"]);
    res.locals.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    res.on("finish", () =>
      recordRequest(ctx, { requestId, method: req.method, route: routeLabel(req.path), url: req.originalUrl, status: res.statusCode, started, ip: req.ip }),
    );
    next();
  });

  app.use((req, res, next) => {
    if (!CORS_PATHS.test(req.path)) return next();
    if (applyCors(req, res)) return;
    // React Router appends response headers; a route's own CORS header would make "*, *", which browsers refuse.
    const append = res.append.bind(res);
    res.append = (field, value) => (/^access-control-/i.test(field) && res.hasHeader(field) ? res : append(field, value));
    next();
  });

  app.use((req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });

  const pageHelmet = helmet({
    contentSecurityPolicy:
      ctx.config.NODE_ENV === "development"
        ? false
        : {
            useDefaults: true,
            directives: {
              "script-src": ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
              "style-src": ["'self'", "'unsafe-inline'"],
              "img-src": ["'self'", "data:", "blob:", ctx.config.cdnBaseUrl, "https://cdn.discordapp.com"],
              "media-src": ["'self'", "blob:", ctx.config.cdnBaseUrl],
              "connect-src": ["'self'", ctx.config.cdnBaseUrl],
              "form-action": ["'self'", "https:"],
              "upgrade-insecure-requests": null,
            },
          },
    crossOriginEmbedderPolicy: false,
    // helmet's no-referrer makes Chromium send "Origin: null" on same-origin form posts, which
    // React Router and our origin check must refuse; this policy keeps the real origin there.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginResourcePolicy: { policy: "cross-origin" },
    strictTransportSecurity: ctx.config.appUrl.startsWith("https://"),
  });
  app.use((req, res, next) => {
    if (FILE_PATHS.test(req.path)) {
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Security-Policy", "sandbox");
      res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
      next();
      return;
    }
    pageHelmet(req, res, next);
  });

  app.use(
    compression({
      filter: (req, res) => {
        if (FILE_PATHS.test(req.path)) return false;
        return COMPRESSIBLE.test(String(res.getHeader("Content-Type") ?? ""));
      },
    }),
  );

  // One origin check in front of every form action, so no page can forget it (React Router's
  // own check answers 400 and misses requests marked only by Sec-Fetch-Site).
  app.use((req, res, next) => {
    // The CORS-open script API authenticates with keys, not cookies, so other origins may post there.
    if (CORS_PATHS.test(req.path)) return next();
    const facts = {
      method: req.method,
      origin: req.get("origin") ?? null,
      secFetchSite: req.get("sec-fetch-site") ?? null,
      requestOrigin: `${req.protocol}://${req.get("host")}`,
    };
    if (isSameOrigin(facts, ctx.config.appUrl)) return next();
    res.status(403).type("text/plain").send(CROSS_SITE_MESSAGE);
  });

  app.get("/metrics", async (_req, res) => {
    res.setHeader("Content-Type", ctx.metrics.registry.contentType);
    res.setHeader("Cache-Control", "no-store");
    res.send(await ctx.metrics.registry.metrics());
  });

  return app;
}

export async function startServer(options: StartServerOptions): Promise<StartedServer> {
  const { config } = options;
  const ctx = await createAppContext(config, { inMemoryDb: options.inMemoryDb });

  const downloads = new DownloadCounter(ctx.db, ctx.logger);
  const backgroundJobs = await startBackgroundJobs(ctx);
  const app = createExpressApp(ctx);
  const trust = app.get("trust proxy fn") as Parameters<typeof proxyAddr>[1];
  const clientIp = (req: IncomingMessage) => proxyAddr(req, trust);
  const serveFile = createFilePathHandler({
    ctx,
    downloads,
    bodies: enableFileBodyCache(ctx.db, {
      maxFileBytes: config.FILE_MEMORY_CACHE_MAX_FILE_KB * 1024,
      maxTotalBytes: config.FILE_MEMORY_CACHE_MB * 1024 * 1024,
    }),
    clientIp,
    canReadPrivate: (req, query, file) => canReadPrivateFile(ctx, { headers: requestHeaders(req), query, ip: clientIp(req) }, file),
  });
  const getBuild = await loadBuild(config, app);
  app.all(
    "/{*splat}",
    createRequestHandler({
      build: getBuild,
      mode: config.NODE_ENV === "development" ? "development" : "production",
      getLoadContext: (req, res) => ({
        ...ctx,
        cspNonce: res.locals.cspNonce as string,
        requestId: res.locals.requestId as string,
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
      }),
    }),
  );

  const sockets = new Set<Socket>();
  // /f/ is dispatched before Express: the router, its per-request setup and the page middleware
  // cost more than serving a small file (decision record 034).
  // Node's default requestTimeout (300 s) cut uploads over slow links; a stalled connection is
  // closed by the idle timeout instead, however long an upload that keeps moving takes.
  const requestTimeout = config.REQUEST_TIMEOUT_S * 1000;
  const server: HttpServer = http.createServer({ requestTimeout, connectionsCheckingInterval: Math.min(30_000, Math.max(500, requestTimeout / 4)) }, (req, res) => {
    settleUnreadBody(req, res);
    return CDN_PATH.test(req.url ?? "") ? serveFile(req, res) : app(req, res);
  });
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
      await downloads.close();
      await backgroundJobs.stop();
      await ctx.close();
    })());

  if (options.handleSignals) {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      process.once(signal, () => {
        ctx.logger.info({ signal }, "shutting down: no new connections, finishing in-flight requests");
        close().then(
          () => process.exit(0),
          (error) => {
            ctx.logger.error({ err: error }, "shutdown failed");
            process.exit(1);
          },
        );
      });
    }
  }

  ctx.logger.info({ url: `http://${host}:${port}`, db: ctx.dbKind, storage: ctx.blobs.kind }, "Stash is listening");
  return { url: `http://${host}:${port}`, port, ctx, flushUsage: () => downloads.flush(), jobs: backgroundJobs, close };
}

const isEntryPoint = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isEntryPoint) {
  try {
    await startServer({ config: loadConfig(), handleSignals: true });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
