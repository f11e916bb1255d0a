/**
 * The app's one server entry: Vite builds it (with the React Router build inside) into
 * build/server/index.js, and the host (server.ts) loads that file and nothing else of the app, so
 * every module, and every module-level limiter or cache in it, exists once per process
 * (docs/decisions/069). It answers requests as a plain Node handler: `/f/` by the file handler,
 * everything else by Express and React Router.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import proxyAddr from "proxy-addr";
import type { ServerBuild } from "react-router";
import { recordRequest, requestIdOf, trackRequest } from "../app/http/access-log.server";
import { matchDirectRoute, runDirectAction, type DirectRoute } from "../app/http/direct-actions.server";
import { action as scriptUpload } from "../app/routes/api/script/upload";
import { action as scriptUploadBase64 } from "../app/routes/api/script/upload-base64";
import { action as presignedUpload } from "../app/routes/api/script/upload-presigned";
import { action as webhookUpload } from "../app/routes/api/script/webhook";
import { action as logsIngest } from "../app/routes/api/script/logs";
import { action as lokiPush } from "../app/routes/api/script/loki-push";
import { createFilePathHandler } from "../app/http/file-path.server";
import { createDiscordAttachmentHandler } from "../app/http/discord-attachment-path.server";
import { settleUnreadBody } from "../app/http/unread-body.server";
import { releaseFiredDrainListeners } from "../app/http/compression-drain.server";
import { createAppContext, type AppContext } from "../app/services/app-context.server";
import { startBackgroundJobs } from "../app/services/maintenance/background-jobs.server";
import { applyCors, CORS_PATHS } from "../app/http/cors.server";
import { CROSS_SITE_MESSAGE, isSameOrigin } from "../app/http/origin-check.server";
import { DownloadCounter } from "../app/services/files/download-counter.server";
import type { Config } from "../app/services/platform/env.server";
import { enableFileBodyCache } from "../app/services/files/lookup.server";
import type { JobQueue } from "../app/services/platform/job-queue.server";
import { routeLabel } from "../app/services/platform/metrics.server";
import { canReadPrivateFile } from "../app/services/files/private-access.server";

export { ConfigError, loadConfig, type Config } from "../app/services/platform/env.server";

// What every loader and action receives: the app context and this request's facts (getLoadContext below).
declare module "react-router" {
  interface AppLoadContext extends AppContext {
    cspNonce: string;
    requestId: string;
    /** The caller's address (honours TRUST_PROXY), for rate limits and audit rows. */
    clientIp: string;
  }
}

// Log and audit exports (CSV, NDJSON) are megabytes of text that compress about tenfold.
const COMPRESSIBLE = /^(text\/(html|css|javascript|plain|xml|csv)|application\/(json|javascript|xml|manifest\+json|x-ndjson)|image\/svg\+xml)/;
/** Resource routes that carry file bytes: never compressed, never given the page CSP. */
const FILE_PATHS = /^\/(api\/download|api\/media)(\/|$)/;
// Upload answers are a few KB of JSON read by game scripts next door; compressing each costs ~0.5 ms of
// CPU per upload (profiled) and saves nothing that matters on that path.
const UPLOAD_ANSWERS = /^\/api\/(upload|uploads|webhooks|portal\/upload|portal\/uploads)(\/|$)/;
/** The /f/ CDN path, answered by the file handler before the Express app is involved. */
const CDN_PATH = /^\/f(\/|\?|$)/;
/** Rescued Discord attachments (docs/decisions/111): resolved to their /f/ path, then answered by the same handler. */
const DISCORD_ATTACHMENT_PATH = /^\/dc\/attachments\//;
/**
 * The script API's upload and log-ingest routes, answered by their route modules without Express and React Router
 * (decision record 077); other methods on these paths (OPTIONS, GET's 405) still go through both.
 */
const DIRECT_ROUTES: readonly DirectRoute[] = [
  { methods: ["POST"], path: /^\/api\/upload\/?$/, action: scriptUpload },
  { methods: ["POST"], path: /^\/api\/upload\/base64\/?$/, action: scriptUploadBase64 },
  { methods: ["POST", "PUT"], path: /^\/api\/upload\/presigned\/(?<token>[^/]+)\/?$/, action: presignedUpload },
  { methods: ["POST"], path: /^\/api\/webhooks\/(?<serverId>[^/]+)\/(?<secret>[^/]+)\/?$/, action: webhookUpload },
  { methods: ["POST"], path: /^\/(?:api\/logs(?:\/batch)?|api\/v3\/logs|v1\/logs)\/?$/, action: logsIngest },
  { methods: ["POST"], path: /^\/loki\/api\/v1\/push\/?$/, action: lokiPush },
] as readonly DirectRoute[];

export interface CreateStashOptions {
  config: Config;
  /** Keeps PGlite in memory instead of under DATA_DIR (tests). */
  inMemoryDb?: boolean;
  /** Development only: Vite's middleware (assets, HMR), run before the app's routes. */
  devMiddleware?: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
}

export interface Stash {
  ctx: AppContext;
  /** Answers one request; the host's HTTP server calls it for every request. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Writes what is gathered in memory now: download counters, the script API's call records and log volume counts. */
  flushUsage(): Promise<void>;
  /** This instance's worker on the shared job queue (background-jobs.server.ts). */
  jobs: JobQueue;
  /** Stops background work and closes the database; call after the HTTP server has drained. */
  close(): Promise<void>;
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

function createExpressApp(ctx: AppContext) {
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
        if (FILE_PATHS.test(req.path) || UPLOAD_ANSWERS.test(req.path)) return false;
        return COMPRESSIBLE.test(String(res.getHeader("Content-Type") ?? ""));
      },
    }),
  );
  app.use(releaseFiredDrainListeners);

  // The origin check for every page action and fetcher, so no route checks by hand (React Router's
  // own check answers 400 and misses requests marked only by Sec-Fetch-Site). Cookie endpoints
  // under /api get the same check from withSession (app/http/session-api.server.ts).
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

export async function createStash(options: CreateStashOptions): Promise<Stash> {
  const { config } = options;
  const ctx = await createAppContext(config, { inMemoryDb: options.inMemoryDb });
  const downloads = new DownloadCounter(ctx.db, ctx.logger);
  const jobs = await startBackgroundJobs(ctx, { mode: config.JOBS_MODE });
  const app = createExpressApp(ctx);
  const trust = app.get("trust proxy fn") as Parameters<typeof proxyAddr>[1];
  // Without X-Forwarded-For proxy-addr's answer is the socket's address; skip its parsing then (every /f/ request).
  const clientIp = (req: IncomingMessage) => (req.headers["x-forwarded-for"] ? proxyAddr(req, trust) : (req.socket.remoteAddress ?? "unknown"));
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
  const serveDiscordAttachment = createDiscordAttachmentHandler(ctx, serveFile);

  if (options.devMiddleware) {
    app.use(options.devMiddleware);
  } else {
    app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false }));
    app.use(express.static("build/client", { maxAge: "1h", index: false }));
  }
  // Loaded before the first request in production (its first answer would otherwise wait seconds for
  // every route module); through Vite on each request in development, so edits show without a restart.
  const loadBuild = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;
  const build = options.devMiddleware ? loadBuild : await loadBuild();
  app.all(
    "/{*splat}",
    createRequestHandler({
      build,
      mode: config.NODE_ENV === "development" ? "development" : "production",
      getLoadContext: (req, res) => ({
        ...ctx,
        cspNonce: res.locals.cspNonce as string,
        requestId: res.locals.requestId as string,
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
      }),
    }),
  );

  return {
    ctx,
    // /f/ is dispatched before Express: the router, its per-request setup and the page middleware
    // cost more than serving a small file (decision record 034).
    handle(req, res) {
      settleUnreadBody(req, res);
      if (CDN_PATH.test(req.url ?? "")) return void serveFile(req, res);
      if (DISCORD_ATTACHMENT_PATH.test(req.url ?? "")) return void serveDiscordAttachment(req, res);
      const direct = matchDirectRoute(DIRECT_ROUTES, req.method, req.url);
      if (!direct) return void app(req, res);
      const ip = clientIp(req);
      const requestId = trackRequest(ctx, req, res, ip);
      applyCors(req, res);
      res.setHeader("X-Content-Type-Options", "nosniff");
      void runDirectAction(direct, req, res, { ...ctx, cspNonce: "", requestId, clientIp: ip });
    },
    flushUsage: async () => {
      await Promise.all([downloads.flush(), ctx.apiCalls.flush(), ctx.logVolume.flush()]);
    },
    jobs,
    async close() {
      await downloads.close();
      await jobs.stop();
      await ctx.close();
    },
  };
}
