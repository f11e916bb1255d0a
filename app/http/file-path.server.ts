import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { isDatabaseUnavailable } from "../../db/connection-errors";
import { DiskBlobStore } from "../../storage/disk";
import type { S3BlobStore } from "../../storage/s3";
import { isStorageThrottled } from "../../storage/storage-errors";
import { DomainError, ERRORS } from "~/services/platform/domain-error.server";
import { ERROR_STATUS, errorBody, errorHeaders } from "~/http/api-response.server";
import type { AppContext } from "~/services/app-context.server";
import { applyCors } from "~/http/cors.server";
import type { DownloadCounter } from "~/services/files/download-counter.server";
import type { BodySource, FileBodyCache } from "~/services/files/body-cache.server";
import { filePathKey, findFileByPath, peekFileByPath, type ServedFileRecord } from "~/services/files/lookup.server";
import { etagMatches, planFileResponse, RANGE_NOT_SATISFIABLE_BODY, servableOriginal, servableVariant, type ServingOptions } from "~/http/file-serving.server";
import { keptFileAnswer } from "~/http/kept-file-answers.server";
import { isRasterImage } from "~/services/media/images.server";
import { AVIF_MAX_SOURCE_PX, findVariant, getOrCreateVariant, MP4_COPY_VARIANT, parseTransform, variantName, type ServedVariant } from "~/services/media/transforms.server";
import { encodeInBackground } from "~/services/media/background-encodes.server";
import { requestVideoCopy } from "~/services/media/video-copies.server";
import { imageLimits } from "~/services/media/limits.server";
import { routeLabel } from "~/services/platform/metrics.server";
import { recordRequest, requestIdOf } from "~/http/access-log.server";
import { sendDescriptor } from "~/http/send-descriptor.server";
import type { FileId, ServerId } from "~/lib/ids";

const SERVER_ID = /^[a-z0-9]{1,40}$/;
const CATEGORY = /^[a-z0-9_-]{1,40}$/;
const FILENAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
const REDIRECT_TTL_S = 600;
const NO_QUERY = new URLSearchParams();
const FILE_ROUTE = routeLabel("/f/");

export interface FilePathDeps {
  ctx: AppContext;
  downloads: DownloadCounter;
  /** Small bodies kept in memory; absent when FILE_MEMORY_CACHE_* turn it off. */
  bodies?: FileBodyCache;
  /** The caller's address under the host's TRUST_PROXY rule (logs and failed-key limits). */
  clientIp(req: IncomingMessage): string;
  /** True when the request carries a valid signed URL of the file or a read key of its server; private files need one. */
  canReadPrivate(req: IncomingMessage, query: URLSearchParams, file: { id: FileId; server_id: ServerId; category: string; filename: string; original_filename: string }): Promise<boolean>;
}

interface FileUrl {
  serverId: string;
  category: string;
  filename: string;
  query: string;
}

const decodePart = (part: string) => (part.includes("%") ? decodeURIComponent(part) : part);

/** `/f/{server}/{category}/{filename}[/][?query]`, each segment percent-decoded; null for any other shape. */
export function parseFileUrl(url: string): FileUrl | null {
  const mark = url.indexOf("?");
  const pathname = mark === -1 ? url : url.slice(0, mark);
  const parts = pathname.split("/");
  // ["", "f", server, category, filename] or, with a trailing slash, one more empty part.
  if (parts.length !== 5 && !(parts.length === 6 && parts[5] === "")) return null;
  try {
    return { serverId: decodePart(parts[2]), category: decodePart(parts[3]), filename: decodePart(parts[4]), query: mark === -1 ? "" : url.slice(mark + 1) };
  } catch {
    return null;
  }
}

/**
 * Every request under /f/: the CDN path. server.ts hands these to this handler before the
 * Express app sees them, so a file request pays for one cached lookup and either one
 * `res.end(buffer)` (small files kept in memory) or one stream — no router, no page middleware.
 * It keeps the host's per-request duties: X-Request-Id, metrics and the access log.
 */
export function createFilePathHandler(deps: FilePathDeps) {
  const { ctx, bodies } = deps;
  const accelPrefix = ctx.blobs.kind === "disk" ? ctx.config.ACCEL_REDIRECT_PREFIX?.replace(/\/?$/, "/") : undefined;
  const s3Redirect = ctx.blobs.kind === "s3" && ctx.config.S3_SERVE === "redirect";
  const limits = imageLimits(ctx.config);

  function sendError(res: ServerResponse, requestId: string, error: DomainError, extra?: Record<string, string>) {
    const body = JSON.stringify(errorBody(error.code, error.message, error.details));
    res.writeHead(ERROR_STATUS[error.code], {
      "X-Request-Id": requestId,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(body)),
      "Cache-Control": "no-store",
      "Access-Control-Allow-Origin": "*",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox",
      "Cross-Origin-Resource-Policy": "cross-origin",
      ...errorHeaders(error),
      ...extra,
    });
    res.end(body);
  }

  /** Small files' plain requests are answered from memory unless nginx or S3 sends the bytes. */
  const memoryBodies = accelPrefix || s3Redirect ? undefined : bodies;

  /**
   * The answer to a GET, HEAD or ETag revalidation of a public original whose record and body are
   * in memory, given at once (decision record 086); false for any other request, which `serve`
   * answers. A query, a Range or an If-Modified-Since without If-None-Match takes the full path.
   */
  function answerFromMemory(req: IncomingMessage, res: ServerResponse, requestId: string): boolean {
    const method = req.method;
    const headers = req.headers;
    if (!memoryBodies || (method !== "GET" && method !== "HEAD") || headers.range !== undefined) return false;
    const ifNoneMatch = headers["if-none-match"];
    if (ifNoneMatch === undefined && headers["if-modified-since"] !== undefined) return false;
    const url = parseFileUrl(req.url ?? "");
    if (!url || url.query || !isFilePath(url)) return false;
    const key = filePathKey(url.serverId, url.category, url.filename);
    const file = peekFileByPath(ctx.db, key);
    if (!file || !file.is_public || file.hidden_at) return false;
    const body = memoryBodies.peek(key, file);
    if (!body) return false;
    const answer = keptFileAnswer(file);
    if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, answer.etag)) {
      res.writeHead(304, [...answer.notModified, "X-Request-Id", requestId]).end();
      return true;
    }
    res.writeHead(200, [...answer.ok, "X-Request-Id", requestId]);
    if (method === "HEAD") {
      res.end();
    } else {
      res.end(body);
      deps.downloads.record(file.server_id, body.length);
    }
    return true;
  }

  /** The body from memory (read into it on first use), or null when it is streamed instead. */
  async function keptBody(key: string, source: BodySource): Promise<Buffer | null> {
    if (!bodies?.keeps(source.size_bytes)) return null;
    return bodies.peek(key, source) ?? bodies.load(key, source, ctx.blobs);
  }

  async function serve(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const method = req.method;
    if (method === "OPTIONS") {
      res.setHeader("X-Request-Id", requestId);
      applyCors(req, res);
      return;
    }
    if (method !== "GET" && method !== "HEAD") {
      return sendError(res, requestId, new DomainError("method_not_allowed", "Method not allowed"), { Allow: "GET, HEAD, OPTIONS" });
    }
    const url = parseFileUrl(req.url ?? "");
    if (!url || !isFilePath(url)) {
      return sendError(res, requestId, ERRORS.notFound());
    }
    const file = await findFileByPath(ctx.db, url.serverId, url.category, url.filename);
    if (!file) return sendError(res, requestId, ERRORS.notFound());
    const query = url.query ? new URLSearchParams(url.query) : NO_QUERY;
    if (!file.is_public && !(await deps.canReadPrivate(req, query, file))) {
      return sendError(res, requestId, ERRORS.notFound());
    }
    if (file.hidden_at) return sendError(res, requestId, ERRORS.fileHidden());

    const isVideo = file.mime_type.startsWith("video/");
    // ?format=mp4 (or format=auto from a browser that cannot play WebM) asks for the video's MP4 copy.
    // An animated GIF has an MP4 copy too, asked for with format=mp4 (format=auto stays an image transform).
    const videoFormat = isVideo
      ? videoFormatRequest(query, req.headers["user-agent"])
      : file.mime_type === "image/gif" && query.get("format") === "mp4"
        ? { copy: true, varyUserAgent: false }
        : null;
    // A video's transforms apply to its poster frame, so one URL form gives every gallery tile.
    const transform = videoFormat ? ({ kind: "none" } as const) : parseTransform(query, req.headers.accept, isVideo ? "image/webp" : file.mime_type);
    if (transform.kind === "invalid") return sendError(res, requestId, new DomainError("invalid_transform", transform.message));
    if (transform.kind === "transform" && !isRasterImage(file.mime_type) && !isVideo) {
      return sendError(res, requestId, new DomainError("not_an_image", "Transforms are only available for images"));
    }

    let storageKey = file.storage_key;
    let target = servableOriginal(file);
    let bodyKey = filePathKey(file.server_id, file.category, file.filename);
    let fresh: Buffer | undefined;
    const options: ServingOptions = { varyUserAgent: videoFormat?.varyUserAgent };
    if (videoFormat?.copy && file.mime_type !== "video/mp4") {
      const copy = await findVariant(ctx.db, file.id, MP4_COPY_VARIANT);
      if (copy) {
        storageKey = copy.storage_key;
        target = servableVariant(file, copy);
        bodyKey = `${bodyKey}?${MP4_COPY_VARIANT}`;
      } else {
        // The first request gets the original while the copy is made in the background.
        requestVideoCopy(ctx.db, file).catch((error: unknown) => ctx.logger.warn({ err: error, fileId: file.id }, "could not queue an MP4 copy"));
      }
    }
    if (transform.kind === "transform" && transform.varyAccept && transform.spec.format === "avif") {
      // AVIF only once it is made: WebP now (briefly cached), the AVIF encoded in the background for next time.
      const source = isVideo ? "poster" : "image";
      const avif = transform.spec;
      if (!(await findVariant(ctx.db, file.id, variantName(avif, source)))) {
        transform.spec = { ...avif, format: "webp" };
        options.shortCache = true;
        if (Math.max(file.width ?? Infinity, file.height ?? Infinity) <= AVIF_MAX_SOURCE_PX) {
          encodeInBackground(`${file.id}/${variantName(avif, source)}`, () => getOrCreateVariant({ db: ctx.db, blobs: ctx.blobs, limits }, file, avif, source, { perFile: ctx.config.VARIANTS_PER_FILE, beforeEncode: async () => {} }), ctx.logger);
        }
      }
    }
    if (transform.kind === "transform") {
      let variant: ServedVariant;
      try {
        variant = await getOrCreateVariant({ db: ctx.db, blobs: ctx.blobs, limits }, file, transform.spec, isVideo ? "poster" : "image", {
          perFile: ctx.config.VARIANTS_PER_FILE,
          beforeEncode: () => admitEncode(deps.clientIp(req)),
        });
      } catch (error) {
        if (error instanceof DomainError) return sendError(res, requestId, error);
        throw error;
      }
      storageKey = variant.storage_key;
      target = servableVariant(file, variant);
      bodyKey = `${bodyKey}?${variant.variant}`;
      fresh = variant.data;
      options.varyAccept = transform.varyAccept;
    }
    const bodySource: BodySource = { storage_key: storageKey, sha256: target.sha256, size_bytes: target.size };
    if (fresh) bodies?.keep(bodyKey, bodySource, fresh);

    const plan = planFileResponse({ method, header: (name) => headerValue(req, name) }, target, options);
    const headers = plan.headers;
    headers["X-Request-Id"] = requestId;
    if (plan.status === 304) return void res.writeHead(304, headers).end();
    if (plan.status === 416) {
      headers["Content-Length"] = String(RANGE_NOT_SATISFIABLE_BODY.length);
      return void res.writeHead(416, headers).end(RANGE_NOT_SATISFIABLE_BODY);
    }

    if (accelPrefix) {
      // nginx answers Range and sends the bytes from its internal location. An empty body of
      // announced length lets nginx keep its upstream connection (a chunked one it would close).
      delete headers["Content-Range"];
      delete headers["Accept-Ranges"];
      headers["Content-Length"] = "0";
      headers["X-Accel-Redirect"] = accelPrefix + storageKey;
      if (plan.sendBody) deps.downloads.record(file.server_id, plan.length);
      return void res.writeHead(200, headers).end();
    }
    if (s3Redirect) {
      const location = await (ctx.blobs as S3BlobStore).presignGet(storageKey, REDIRECT_TTL_S, headers["Content-Disposition"]);
      delete headers["Content-Length"];
      delete headers["Content-Range"];
      headers.Location = location;
      headers["Cache-Control"] = `private, max-age=${REDIRECT_TTL_S / 2}`;
      if (plan.sendBody) deps.downloads.record(file.server_id, plan.length);
      return void res.writeHead(302, headers).end();
    }
    if (!plan.sendBody) return void res.writeHead(plan.status, headers).end();

    const body = fresh ?? (await keptBody(bodyKey, bodySource));
    if (body) {
      res.writeHead(plan.status, headers);
      res.end(plan.range ? body.subarray(plan.range.start, plan.range.end + 1) : body);
      deps.downloads.record(file.server_id, plan.length);
      return;
    }

    if (ctx.blobs instanceof DiskBlobStore) {
      const opened = await ctx.blobs.open(storageKey);
      if (!opened) return missingBlob(file, storageKey, res, requestId);
      res.writeHead(plan.status, headers);
      res.once("finish", () => deps.downloads.record(file.server_id, plan.length));
      const range = plan.range ?? { start: 0, end: opened.size - 1 };
      return sendDescriptor(res, opened.fd, range.start, range.end);
    }
    const blob = await ctx.blobs.get(storageKey, plan.range ?? undefined);
    if (!blob) return missingBlob(file, storageKey, res, requestId);
    res.writeHead(plan.status, headers);
    res.once("finish", () => deps.downloads.record(file.server_id, plan.length));
    await pipeline(blob.stream, res).catch((error: NodeJS.ErrnoException) => {
      // A client that goes away mid-download is normal traffic, not a server error.
      if (error.code !== "ERR_STREAM_PREMATURE_CLOSE") throw error;
    });
  }

  /** New variants cost an encode: each client address may start TRANSFORMS_PER_MINUTE of them; stored ones are free. */
  async function admitEncode(ip: string): Promise<void> {
    const rule = { points: ctx.config.TRANSFORMS_PER_MINUTE, duration: 60 };
    const result = await ctx.rateLimits.consume("transforms", ip, rule);
    if (!result.allowed) {
      throw ERRORS.rateLimited("Too many new image sizes requested; try again shortly or use a preset", result);
    }
  }

  function missingBlob(file: ServedFileRecord, storageKey: string, res: ServerResponse, requestId: string) {
    ctx.logger.error({ fileId: file.id, storageKey }, "file row without its blob");
    sendError(res, requestId, ERRORS.notFound());
  }

  return function handleFileRequest(req: IncomingMessage, res: ServerResponse): void {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(req.headers["x-request-id"]);
    const finished = () =>
      recordRequest(ctx, { requestId, method: req.method ?? "GET", route: FILE_ROUTE, url: req.url ?? "", status: res.statusCode, started, ip: deps.clientIp(req) });
    // An answer from memory is handed to the socket whole by `end`, so it is recorded at once.
    if (answerFromMemory(req, res, requestId)) return finished();
    res.once("finish", finished);
    serve(req, res, requestId).catch((error: unknown) => {
      const unavailable = isDatabaseUnavailable(error) ? ERRORS.databaseUnavailable() : isStorageThrottled(error) ? ERRORS.storageUnavailable() : null;
      if (!res.headersSent && unavailable) {
        ctx.logger.warn({ err: error, requestId }, unavailable.message);
        return sendError(res, requestId, unavailable);
      }
      ctx.logger.error({ err: error, requestId }, res.headersSent ? "file stream failed" : "file request failed");
      if (res.headersSent) return void res.destroy();
      sendError(res, requestId, new DomainError("internal_error", "Something went wrong"));
    });
  };
}

/** A well-formed path, whose server part is then a server id. */
const isFilePath = (url: FileUrl): url is FileUrl & { serverId: ServerId } => SERVER_ID.test(url.serverId) && CATEGORY.test(url.category) && FILENAME.test(url.filename);

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * What a video request asks for: `format=mp4` its MP4 copy; `format=auto` (no size asked) the copy
 * for Safari, which cannot play WebM everywhere (iPhones), and the original for everyone else. Null
 * for other requests (sizes and formats of a video apply to its poster frame).
 */
export function videoFormatRequest(query: URLSearchParams, userAgent: string | undefined): { copy: boolean; varyUserAgent: boolean } | null {
  const format = query.get("format");
  if (format === "mp4") return { copy: true, varyUserAgent: false };
  if (format !== "auto" || query.has("w") || query.has("h") || query.has("preset")) return null;
  const ua = userAgent ?? "";
  const safari = /Safari\//.test(ua) && !/(Chrome|Chromium|CriOS|FxiOS|Edg|OPR|Android)\//.test(ua);
  return { copy: safari || /iPhone|iPad|iPod/.test(ua), varyUserAgent: true };
}
