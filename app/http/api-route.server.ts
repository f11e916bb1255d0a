import type { AppLoadContext } from "react-router";
import { isDatabaseUnavailable } from "../../db/connection-errors";
import { isStorageFull, isStorageThrottled } from "../../storage/storage-errors";
import { DomainError, ERRORS } from "~/services/platform/domain-error.server";
import { apiError, errorResponse } from "~/http/api-response.server";
import { authenticateApiRequest, type ApiCaller } from "~/services/api-keys/key-auth.server";
import type { ApiKeyPermission } from "~/lib/api-key-status";
import { assertAddressInScope } from "~/services/api-keys/key-scopes.server";

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
  /** False keeps successful calls out of the audit trail (log ingest: thousands a minute); refusals are still recorded. */
  audited?: boolean;
}

/**
 * A key-authenticated script API call: authenticates (401/403/429), runs the handler, answers
 * errors as JSON, adds the RateLimit headers and records the call (audit row, usage counter).
 */
export async function withApiKey(
  context: AppLoadContext,
  request: Request,
  options: KeyedRouteOptions,
  handler: (caller: ApiCaller) => Promise<Response>,
): Promise<Response> {
  const url = new URL(request.url);
  let caller: ApiCaller;
  try {
    caller = await authenticateApiRequest(context, {
      headers: request.headers,
      query: url.searchParams,
      ip: context.clientIp,
      permission: options.permission,
      serverId: options.serverId ?? url.searchParams.get("server_id") ?? request.headers.get("x-server-id"),
    });
  } catch (error) {
    return failureResponse(context, error);
  }
  let response: Response;
  try {
    // A key limited to some addresses is refused elsewhere after it proved valid: the call is the key's, and recorded as such.
    assertAddressInScope(caller.scopes, context.clientIp);
    response = await handler(caller);
  } catch (error) {
    response = failureResponse(context, error);
  }
  for (const [name, value] of Object.entries(caller.rateHeaders)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  context.apiCalls.record(caller, {
    action: options.action,
    audited: options.audited !== false || response.status >= 400,
    ip: context.clientIp,
    status: response.status,
    detail: { method: request.method, path: url.pathname },
  });
  return response;
}
