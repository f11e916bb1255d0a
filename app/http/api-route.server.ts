import type { AppLoadContext } from "react-router";
import { isDatabaseUnavailable } from "../../db/connection-errors";
import { isStorageFull, isStorageThrottled } from "../../storage/storage-errors";
import { DomainError, ERRORS } from "~/services/platform/domain-error.server";
import { apiError, errorResponse } from "~/http/api-response.server";
import { authenticateKeyedCall, type ApiCaller, type KeyedCall } from "~/services/api-keys/key-auth.server";
import type { ApiKeyPermission } from "~/lib/api-key-status";
import { assertAddressInScope } from "~/services/api-keys/key-scopes.server";
import { storedFilesAudit } from "~/lib/audit-targets";

/**
 * Turns a DomainError into its JSON answer, a lost database into 503 database_unavailable, a full
 * disk into 507 insufficient_storage and a throttling object store into 503 storage_unavailable
 * (each with Retry-After), and anything else into a logged 500, so /api never answers HTML.
 */
export async function runApi(context: AppLoadContext, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    return failureResponse(context, error);
  }
}

function failureResponse(context: AppLoadContext, error: unknown): Response {
  if (error instanceof DomainError) return errorResponse(error);
  if (isDatabaseUnavailable(error)) {
    context.logger.warn({ err: error, requestId: context.requestId }, "database unavailable");
    return errorResponse(ERRORS.databaseUnavailable());
  }
  if (isStorageFull(error)) {
    context.logger.error({ err: error, requestId: context.requestId }, "blob storage is full");
    return errorResponse(ERRORS.insufficientStorage());
  }
  if (isStorageThrottled(error)) {
    context.logger.warn({ err: error, requestId: context.requestId }, "blob storage throttled the request");
    return errorResponse(ERRORS.storageUnavailable());
  }
  context.logger.error({ err: error, requestId: context.requestId }, "script API request failed");
  return apiError("internal_error", "Internal server error", { request_id: context.requestId });
}

export interface KeyedRouteOptions {
  /** Audit action, e.g. "file.upload". */
  action: string;
  permission?: ApiKeyPermission;
  /** A server id the client claims before the body is read (query or header). */
  serverId?: string | null;
  /** What the URL names (a file id, `Case XT-0020`): the audit row says it even when the call is refused before the handler runs. */
  target?: string | null;
  /** False keeps successful calls out of the audit trail (log ingest: thousands a minute); refusals are still recorded. */
  audited?: boolean;
}

/**
 * What a key call acted on, for its audit row: the handler names it once it knows (a stored file's
 * name and id, a case's number), so the trail reads as the portal's entries do (decision 099).
 */
export class KeyCallAudit {
  target: string | null;
  readonly detail: Record<string, unknown> = {};

  constructor(target: string | null = null) {
    this.target = target;
  }

  /** Names what the call acted on, with what to keep beside it. */
  name(target: string, detail: Record<string, unknown> = {}): void {
    this.target = target;
    Object.assign(this.detail, detail);
  }

  /** The files the call stored, deleted or signed: one file as `a.png (id)`, several counted, each in the detail. */
  files(files: readonly { id: string; original_filename: string }[]): void {
    const { target, detail } = storedFilesAudit(files);
    this.name(target, detail);
  }
}

/**
 * A key-authenticated script API call: authenticates (401/429), refuses a key that may not make
 * it (403, recorded on its team's trail), runs the handler, answers errors as JSON, adds the
 * RateLimit headers and records the call (audit row with its target, usage counter).
 */
export async function withApiKey(
  context: AppLoadContext,
  request: Request,
  options: KeyedRouteOptions,
  handler: (caller: ApiCaller, audit: KeyCallAudit) => Promise<Response>,
): Promise<Response> {
  const url = new URL(request.url);
  let call: KeyedCall;
  try {
    call = await authenticateKeyedCall(context, {
      headers: request.headers,
      query: url.searchParams,
      ip: context.clientIp,
      permission: options.permission,
      serverId: options.serverId ?? url.searchParams.get("server_id") ?? request.headers.get("x-server-id"),
    });
  } catch (error) {
    return failureResponse(context, error);
  }
  const { caller, refusal } = call;
  const audit = new KeyCallAudit(options.target);
  let response: Response;
  try {
    // A valid key refused (another server, a permission, an address outside its scope) is the key's call, and recorded as such.
    if (refusal) throw refusal;
    assertAddressInScope(caller.scopes, context.clientIp);
    response = await handler(caller, audit);
  } catch (error) {
    response = failureResponse(context, error);
  }
  for (const [name, value] of Object.entries(caller.rateHeaders)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  const refusedPermission = refusal?.code === "permission_denied" ? { refused: true, permission: options.permission } : {};
  context.apiCalls.record(caller, {
    action: options.action,
    audited: options.audited !== false || response.status >= 400,
    ip: context.clientIp,
    status: response.status,
    target: audit.target,
    detail: { method: request.method, path: url.pathname, ...audit.detail, ...refusedPermission },
  });
  return response;
}
