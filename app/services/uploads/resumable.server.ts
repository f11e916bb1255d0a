import fs from "node:fs";
import path from "node:path";
import { FileStore } from "@tus/file-store";
import { Server, type Upload } from "@tus/server";
import { findFileType } from "~/lib/file-types";
import { ApiError, errorBody, fileTooLarge } from "~/lib/api-response";
import type { AppContext } from "~/services/app-context.server";
import type { Config } from "~/services/platform/env.server";
import type { UploadNotes } from "~/services/files/file-views.server";
import { getAccountQuota } from "~/services/billing/quota.server";
import { parseUploadFields } from "~/services/uploads/upload-fields.server";
import { assertTypeAllowed } from "~/services/uploads/accepted-types.server";
import { commitUploads, quotaExceeded, storeUpload, type UploadTarget } from "~/services/uploads/store-upload.server";
import type { FileRecord } from "../../../db/schema";

/** Where the script API's tus endpoint lives; an upload's URL is this plus its id. */
export const TUS_PATH = "/api/uploads/tus";
/** A partial upload nobody touched for this long is deleted (and was never counted in usage). */
export const TUS_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** What the route learned about a request before handing it to tus: who calls, and where files go. */
export interface ResumableScope {
  target: UploadTarget;
  /** Turns the committed file into the route's answer body (the script API's or the portal's). */
  answer(files: (FileRecord & UploadNotes)[]): Record<string, unknown>;
}

const scopes = new WeakMap<Request, ResumableScope>();
const servers = new WeakMap<AppContext, Server>();

export function tusDirectory(config: Pick<Config, "dataDir">): string {
  return path.join(config.dataDir, "tus");
}

/** A tus error: the status and a JSON body in the script API's error shape. */
function tusError(error: ApiError) {
  return { status_code: error.status, body: JSON.stringify(errorBody(error.code, error.message, error.details)) };
}

function scopeOf(req: Request): ResumableScope {
  const scope = scopes.get(req);
  if (!scope) throw new Error("tus request without a scope");
  return scope;
}

/**
 * Checks at creation what can be known before any byte: the declared size against the server's
 * limit and the owner's free quota, the declared type (from the file name) against the server's
 * types. The bytes are checked again when the upload completes, as every upload's are.
 */
async function checkCreation(ctx: AppContext, target: UploadTarget, upload: Upload): Promise<void> {
  const size = upload.size;
  if (size === undefined) throw new ApiError(400, "invalid_request", "Upload-Length is required (deferred lengths are not accepted)");
  if (size > target.maxBytes) throw fileTooLarge(target.maxBytes, size);
  const quota = await getAccountQuota(ctx.db, target.userId);
  if (quota.usedBytes + size > quota.quotaBytes) throw quotaExceeded(quota.quotaBytes, quota.usedBytes);
  const name = upload.metadata?.filename ?? upload.metadata?.name ?? "";
  const declared = findFileType(path.extname(name).slice(1).toLowerCase());
  if (declared) assertTypeAllowed(target.allowedTypes, { ext: declared.name, mime: declared.mimes[0] ?? "application/octet-stream" });
}

/**
 * The completed bytes go through the same pipeline as any upload (type from the bytes, size limit,
 * media processing, malware scan, quota reserved atomically, the row), then the partial is removed.
 */
async function finishResumable(ctx: AppContext, store: FileStore, scope: ResumableScope, upload: Upload) {
  const file = path.join(tusDirectory(ctx.config), upload.id);
  const metadata = upload.metadata ?? {};
  try {
    const fields = parseUploadFields({
      category: metadata.category ?? undefined,
      is_public: metadata.is_public ?? undefined,
      player_name: metadata.player_name ?? undefined,
      player_identifier: metadata.player_identifier ?? undefined,
      metadata: metadata.metadata ?? undefined,
    });
    const stored = await storeUpload(ctx, scope.target, fs.createReadStream(file), {
      category: fields.category,
      clientFilename: metadata.filename ?? metadata.name ?? undefined,
    });
    const files = await commitUploads(ctx, scope.target, [stored], { ...fields, filename: metadata.filename ?? metadata.name ?? undefined });
    return { status_code: 200, headers: { "Content-Type": "application/json" }, body: JSON.stringify(scope.answer(files)) };
  } finally {
    await store.remove(upload.id).catch(() => undefined);
  }
}

/** One tus server per app context: partials on disk under DATA_DIR/tus, expiring after TUS_EXPIRY_MS. */
export function resumableUploadServer(ctx: AppContext): Server {
  let server = servers.get(ctx);
  if (server) return server;
  const store = new FileStore({ directory: tusDirectory(ctx.config), expirationPeriodInMilliseconds: TUS_EXPIRY_MS });
  server = new Server({
    path: TUS_PATH,
    datastore: store,
    relativeLocation: true,
    // The upload's URL is under the path the client used (the portal has its own, session-checked one),
    // with its query (the portal's server_id) kept for the requests that continue it.
    generateUrl: (req, { id }) => {
      const url = new URL(req.url);
      return `${url.pathname.replace(/\/$/, "")}/${id}${url.search}`;
    },
    getFileIdFromRequest: (req) => /\/([0-9a-f]{32})\/?$/.exec(new URL(req.url).pathname)?.[1],
    onUploadCreate: async (req, upload) => {
      const { target } = scopeOf(req);
      try {
        await checkCreation(ctx, target, upload);
      } catch (error) {
        if (error instanceof ApiError) throw tusError(error);
        throw error;
      }
      return { metadata: { ...upload.metadata, server_id: target.serverId } };
    },
    onIncomingRequest: async (req, uploadId) => {
      if (req.method === "POST" || req.method === "OPTIONS") return;
      // Another server's key cannot see or continue this upload: it does not exist for it.
      const upload = await store.getUpload(uploadId).catch(() => undefined);
      if (!upload || upload.metadata?.server_id !== scopeOf(req).target.serverId) {
        throw tusError(new ApiError(404, "not_found", "Upload not found"));
      }
    },
    // tus's own refusals (wrong offset, missing header) are plain text; the script API answers JSON.
    onResponseError: (_req, error) => {
      if (!("status_code" in error) || error.body.startsWith("{")) return undefined;
      const code = error.status_code === 404 ? "not_found" : error.status_code === 413 ? "file_too_large" : "invalid_request";
      return { status_code: error.status_code, body: JSON.stringify(errorBody(code, error.body.trim())) };
    },
    onUploadFinish: async (req, upload) => {
      try {
        return await finishResumable(ctx, store, scopeOf(req), upload);
      } catch (error) {
        if (error instanceof ApiError) throw tusError(error);
        throw error;
      }
    },
  });
  servers.set(ctx, server);
  return server;
}

/** Runs a tus request for a caller the route has authenticated. */
export function handleResumableUpload(ctx: AppContext, request: Request, scope: ResumableScope): Promise<Response> {
  scopes.set(request, scope);
  return resumableUploadServer(ctx).handleWeb(request);
}

/** Deletes partial uploads untouched for TUS_EXPIRY_MS; returns how many (a background job). */
export async function deleteExpiredResumableUploads(config: Pick<Config, "dataDir">): Promise<number> {
  // FileStore creates its directory in the background; listing before that fails on a new volume.
  await fs.promises.mkdir(tusDirectory(config), { recursive: true });
  return new FileStore({ directory: tusDirectory(config), expirationPeriodInMilliseconds: TUS_EXPIRY_MS }).deleteExpired();
}
