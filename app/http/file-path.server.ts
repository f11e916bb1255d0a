import { pipeline } from "node:stream/promises";
import type { NextFunction, Request, Response } from "express";
import type { S3BlobStore } from "../../storage/s3.ts";
import type { AppContext } from "../services/app-context.server.ts";
import { applyCors } from "../services/cors.server.ts";
import type { DownloadCounter } from "../services/download-usage.server.ts";
import { findFileByPath, type ServedFileRecord } from "../services/file-lookup.server.ts";
import { planFileResponse, RANGE_NOT_SATISFIABLE_BODY, type ServableFile, type ServingOptions } from "../services/file-serving.server.ts";
import { MediaError, isRasterImage } from "../services/media/images.server.ts";
import { getOrCreateVariant, parseTransform, type StoredVariant } from "../services/media/transforms.server.ts";
import { imageLimits } from "../services/media/limits.server.ts";

const SERVER_ID = /^[a-z0-9]{1,40}$/;
const CATEGORY = /^[a-z0-9_-]{1,40}$/;
const FILENAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
const REDIRECT_TTL_S = 600;

export interface FilePathDeps {
  ctx: AppContext;
  downloads: DownloadCounter;
  /** True when the request carries a valid key of `serverId`; private files need one. */
  canReadPrivate(req: Request, serverId: string): Promise<boolean>;
}

function sendJsonError(res: Response, status: number, code: string, message: string) {
  res.status(status);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Security-Policy", "sandbox");
  res.end(JSON.stringify({ success: false, status: "error", error: message, message, code }));
}

const notFound = (res: Response) => sendJsonError(res, 404, "not_found", "File not found");

function servable(file: ServedFileRecord): ServableFile {
  return {
    size: file.size_bytes,
    sha256: file.sha256,
    mimeType: file.mime_type,
    lastModified: new Date(file.created_at),
    downloadName: file.original_filename || file.filename,
    isPublic: file.is_public,
  };
}

function servableVariant(file: ServedFileRecord, variant: StoredVariant): ServableFile {
  const base = (file.original_filename || file.filename).replace(/\.[^.]*$/, "");
  return {
    size: variant.size_bytes,
    sha256: `${file.sha256}-${variant.variant}`,
    mimeType: variant.mime_type,
    lastModified: new Date(variant.created_at),
    downloadName: `${base}.${variant.variant.split(".").pop()}`,
    isPublic: file.is_public,
  };
}

/**
 * GET/HEAD /f/{server_id}/{category}/{filename}: the CDN path. Sits in front of React Router so
 * a file request costs one cached lookup and a stream, nothing else.
 */
export function createFilePathHandler(deps: FilePathDeps) {
  const { ctx } = deps;
  const accelPrefix = ctx.blobs.kind === "disk" ? ctx.config.ACCEL_REDIRECT_PREFIX : undefined;
  const s3Redirect = ctx.blobs.kind === "s3" && ctx.config.S3_SERVE === "redirect";
  const limits = imageLimits(ctx.config);

  return async function filePath(req: Request, res: Response, next: NextFunction) {
    try {
      if (req.method === "OPTIONS") {
        applyCors(req, res);
        return;
      }
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.setHeader("Allow", "GET, HEAD, OPTIONS");
        sendJsonError(res, 405, "method_not_allowed", "Method not allowed");
        return;
      }
      const { serverId, category, filename } = req.params as Record<string, string>;
      if (!SERVER_ID.test(serverId) || !CATEGORY.test(category) || !FILENAME.test(filename)) return notFound(res);
      const file = await findFileByPath(ctx.db, serverId, category, filename);
      if (!file) return notFound(res);
      if (!file.is_public && !(await deps.canReadPrivate(req, file.server_id))) return notFound(res);

      const query = new URL(req.originalUrl, "http://x").searchParams;
      const isVideo = file.mime_type.startsWith("video/");
      // A video's transforms apply to its poster frame, so one URL form gives every gallery tile.
      const transform = parseTransform(query, req.get("accept"), isVideo ? "image/webp" : file.mime_type);
      if (transform.kind === "invalid") return sendJsonError(res, 400, "invalid_transform", transform.message);
      if (transform.kind === "transform" && !isRasterImage(file.mime_type) && !isVideo) {
        return sendJsonError(res, 415, "not_an_image", "Transforms are only available for images");
      }

      let storageKey = file.storage_key;
      let target = servable(file);
      const options: ServingOptions = {};
      if (transform.kind === "transform") {
        let variant: StoredVariant;
        try {
          variant = await getOrCreateVariant({ db: ctx.db, blobs: ctx.blobs, limits }, file, transform.spec, isVideo ? "poster" : "image");
        } catch (error) {
          if (error instanceof MediaError) return sendJsonError(res, error.status, error.code, error.message);
          throw error;
        }
        storageKey = variant.storage_key;
        target = servableVariant(file, variant);
        options.varyAccept = transform.varyAccept;
      }

      const plan = planFileResponse({ method: req.method, header: (name) => req.get(name) }, target, options);
      res.status(plan.status);
      for (const [name, value] of Object.entries(plan.headers)) res.setHeader(name, value);
      if (plan.status === 304) return void res.end();
      if (plan.status === 416) return void res.end(RANGE_NOT_SATISFIABLE_BODY);

      if (accelPrefix) {
        // nginx answers Range and sends the bytes from its internal location.
        res.status(200);
        res.removeHeader("Content-Range");
        res.removeHeader("Content-Length");
        res.setHeader("X-Accel-Redirect", accelPrefix.replace(/\/?$/, "/") + storageKey);
        if (plan.sendBody) deps.downloads.record(file.server_id, plan.length);
        return void res.end();
      }
      if (s3Redirect) {
        const url = await (ctx.blobs as S3BlobStore).presignGet(storageKey, REDIRECT_TTL_S, plan.headers["Content-Disposition"]);
        res.status(302);
        res.removeHeader("Content-Length");
        res.removeHeader("Content-Range");
        res.setHeader("Location", url);
        res.setHeader("Cache-Control", `private, max-age=${REDIRECT_TTL_S / 2}`);
        if (plan.sendBody) deps.downloads.record(file.server_id, plan.length);
        return void res.end();
      }
      if (!plan.sendBody) return void res.end();

      const blob = await ctx.blobs.get(storageKey, plan.range ?? undefined);
      if (!blob) {
        res.removeHeader("Content-Length");
        res.removeHeader("Content-Range");
        ctx.logger.error({ fileId: file.id, storageKey }, "file row without its blob");
        return notFound(res);
      }
      res.on("finish", () => deps.downloads.record(file.server_id, plan.length));
      await pipeline(blob.stream, res).catch((error: NodeJS.ErrnoException) => {
        // A client that goes away mid-download is normal traffic, not a server error.
        if (error.code !== "ERR_STREAM_PREMATURE_CLOSE") throw error;
      });
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        ctx.logger.error({ err: error }, "file stream failed");
        return;
      }
      next(error);
    }
  };
}
