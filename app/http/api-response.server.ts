/**
 * The JSON envelopes of the script API (DESIGN.md "Script API") and the one table from error code
 * to HTTP status (docs/decisions/071). Game scripts read different fields (`error == true`,
 * `status == "error"`, `success`), so every body carries all of them.
 */
import type { ErrorCode } from "~/lib/error-codes";
import { DomainError } from "~/services/platform/domain-error.server";
import { rateLimitHeaders } from "~/services/platform/rate-limits.server";

export const ERROR_STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  missing_file: 400,
  invalid_metadata: 400,
  invalid_transform: 400,
  method_not_allowed: 405,
  missing_api_key: 401,
  invalid_api_key: 401,
  not_authenticated: 401,
  api_key_expired: 401,
  invalid_credentials: 401,
  email_not_confirmed: 403,
  invalid_signature: 400,
  permission_denied: 403,
  server_mismatch: 403,
  server_inactive: 403,
  invalid_upload_url: 403,
  role_change_refused: 409,
  not_found: 404,
  email_taken: 409,
  discord_account_conflict: 409,
  file_too_large: 413,
  request_too_large: 413,
  quota_exceeded: 413,
  server_quota_exceeded: 409,
  rate_limited: 429,
  unsupported_file_type: 415,
  invalid_image: 415,
  not_an_image: 415,
  image_too_large: 413,
  too_many_frames: 413,
  image_corrupt: 422,
  file_missing: 400,
  file_hidden: 451,
  file_in_open_case: 409,
  invalid_export: 400,
  unsafe_archive: 422,
  import_in_progress: 409,
  discord_token_invalid: 422,
  discord_intent_missing: 422,
  url_not_allowed: 422,
  file_infected: 422,
  plan_unavailable: 400,
  billing_not_configured: 500,
  payments_disabled: 503,
  payment_provider_error: 502,
  discord_unavailable: 502,
  source_unavailable: 502,
  database_unavailable: 503,
  insufficient_storage: 507,
  storage_unavailable: 503,
  scanner_unavailable: 503,
  internal_error: 500,
};

export interface ApiErrorBody {
  success: false;
  status: "error";
  error: string;
  message: string;
  code: ErrorCode;
  [detail: string]: unknown;
}

export function errorBody(code: ErrorCode, message: string, details: Record<string, unknown> = {}): ApiErrorBody {
  return { success: false, status: "error", error: message, message, code, ...details };
}

/** Retry-After (and the RateLimit fields for a spent limit) for an error that says when to come back. */
export function errorHeaders(error: DomainError): Record<string, string> {
  if (!error.retry) return {};
  if (error.retry.limit) return rateLimitHeaders(error.retry.limit);
  return { "Retry-After": String(error.retry.afterSeconds) };
}

const NO_STORE = { "Cache-Control": "no-store" };

export function errorResponse(error: DomainError): Response {
  return Response.json(errorBody(error.code, error.message, error.details), {
    status: ERROR_STATUS[error.code],
    headers: { ...NO_STORE, ...errorHeaders(error) },
  });
}

export function apiError(code: ErrorCode, message: string, details: Record<string, unknown> = {}): Response {
  return errorResponse(new DomainError(code, message, details));
}

/** A success answer: `success`, `status` and `error` first, then the route's own fields. */
export function apiSuccess(body: Record<string, unknown>, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return Response.json(
    { success: true, status: "ok", error: false, ...body },
    { status: init.status ?? 200, headers: { ...NO_STORE, ...init.headers } },
  );
}

/** 405 with the Allow header naming what the route answers. */
export function methodNotAllowed(allow: string, message: string): Response {
  const response = apiError("method_not_allowed", message);
  response.headers.set("Allow", allow);
  return response;
}
