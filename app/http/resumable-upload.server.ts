import { FileStore } from "@tus/file-store";
import { Server } from "@tus/server";
import type { FileRecord } from "../../db/schema";
import { isDatabaseUnavailable } from "../../db/connection-errors";
import { isStorageFull, isStorageThrottled } from "../../storage/storage-errors";
import { DomainError, ERRORS } from "~/services/platform/domain-error.server";
import { ERROR_STATUS, errorBody } from "~/http/api-response.server";
import type { AppContext } from "~/services/app-context.server";
import type { UploadNotes } from "~/services/files/file-views.server";
import { checkResumableCreation, completeResumableUpload, TUS_EXPIRY_MS, tusDirectory } from "~/services/uploads/resumable.server";
import type { UploadTarget } from "~/services/uploads/store-upload.server";

/**
 * The tus 1.0 protocol for resumable uploads (@tus/server over Fetch Request/Response, docs/decisions/068):
 * the routes authenticate, this file speaks tus, and services/uploads/resumable.server.ts checks and stores.
 */

/** Where the script API's tus endpoint lives; an upload's URL is this plus its id. */
const TUS_PATH = "/api/uploads/tus";

/** What the route learned about a request before handing it to tus: who calls, and where files go. */
export interface ResumableScope {
  target: UploadTarget;
  /** Turns the committed file into the route's answer body (the script API's or the portal's). */
  answer(files: (FileRecord & UploadNotes)[]): Record<string, unknown>;
}

const scopes = new WeakMap<Request, ResumableScope>();
const servers = new WeakMap<AppContext, Server>();

/** A tus error: the status and a JSON body in the script API's error shape. */
function tusError(error: DomainError) {
  return { status_code: ERROR_STATUS[error.code], body: JSON.stringify(errorBody(error.code, error.message, error.details)) };
}

function scopeOf(req: Request): ResumableScope {
  const scope = scopes.get(req);
  if (!scope) throw new Error("tus request without a scope");
  return scope;
}

/** Refusals and outages as the script API answers them (a lost database 503, a full disk 507), not tus's plain 500. */
async function asTusError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw tusError(error);
    if (isDatabaseUnavailable(error)) throw tusError(ERRORS.databaseUnavailable());
    if (isStorageFull(error)) throw tusError(ERRORS.insufficientStorage());
    if (isStorageThrottled(error)) throw tusError(ERRORS.storageUnavailable());
    throw error;
  }
}

/** One tus server per app context: partials on disk under DATA_DIR/tus, expiring after TUS_EXPIRY_MS. */
function resumableUploadServer(ctx: AppContext): Server {
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
      await asTusError(() => checkResumableCreation(ctx, target, { size: upload.size, metadata: upload.metadata ?? {} }));
      return { metadata: { ...upload.metadata, server_id: target.serverId } };
    },
    onIncomingRequest: async (req, uploadId) => {
      if (req.method === "POST" || req.method === "OPTIONS") return;
      // Another server's key cannot see or continue this upload: it does not exist for it.
      const upload = await store.getUpload(uploadId).catch(() => undefined);
      if (!upload || upload.metadata?.server_id !== scopeOf(req).target.serverId) {
        throw tusError(new DomainError("not_found", "Upload not found"));
      }
    },
    // tus's own refusals (wrong offset, missing header) are plain text; the script API answers JSON.
    onResponseError: (_req, error) => {
      if (!("status_code" in error) || error.body.startsWith("{")) return undefined;
      const code = error.status_code === 404 ? "not_found" : error.status_code === 413 ? "file_too_large" : "invalid_request";
      return { status_code: error.status_code, body: JSON.stringify(errorBody(code, error.body.trim())) };
    },
    onUploadFinish: async (req, upload) => {
      const scope = scopeOf(req);
      try {
        const files = await asTusError(() => completeResumableUpload(ctx, scope.target, upload.id, upload.metadata ?? {}));
        return { status_code: 200, headers: { "Content-Type": "application/json" }, body: JSON.stringify(scope.answer(files)) };
      } finally {
        await store.remove(upload.id).catch(() => undefined);
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
