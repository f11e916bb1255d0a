/**
 * The JSON envelopes of the script API (DESIGN.md "Script API"). Game scripts read different
 * fields (`error == true`, `status == "error"`, `success`), so every body carries all of them.
 */

export type ApiErrorCode =
  | "invalid_request"
  | "missing_file"
  | "invalid_metadata"
  | "missing_api_key"
  | "invalid_api_key"
  | "not_authenticated"
  | "api_key_expired"
  | "permission_denied"
  | "server_mismatch"
  | "server_inactive"
  | "invalid_upload_url"
  | "not_found"
  | "method_not_allowed"
  | "file_too_large"
  | "request_too_large"
  | "quota_exceeded"
  | "unsupported_file_type"
  | "image_too_large"
  | "too_many_frames"
  | "invalid_image"
  | "image_corrupt"
  | "rate_limited"
  | "database_unavailable"
  | "insufficient_storage"
  | "storage_unavailable"
  | "file_infected"
  | "scanner_unavailable"
  | "internal_error";

export interface ApiErrorBody {
  success: false;
  status: "error";
  error: string;
  message: string;
  code: ApiErrorCode;
  [detail: string]: unknown;
}

/** An error a route turns into its JSON answer; services throw it so the status travels with the message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function errorBody(code: ApiErrorCode, message: string, details: Record<string, unknown> = {}): ApiErrorBody {
  return { success: false, status: "error", error: message, message, code, ...details };
}

const NO_STORE = { "Cache-Control": "no-store" };

export function apiErrorResponse(error: ApiError): Response {
  return Response.json(errorBody(error.code, error.message, error.details), {
    status: error.status,
    headers: { ...NO_STORE, ...error.headers },
  });
}

export function apiError(
  status: number,
  code: ApiErrorCode,
  message: string,
  details: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return apiErrorResponse(new ApiError(status, code, message, details, headers));
}

/** A success answer: `success`, `status` and `error` first, then the route's own fields. */
export function apiSuccess(body: Record<string, unknown>, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return Response.json(
    { success: true, status: "ok", error: false, ...body },
    { status: init.status ?? 200, headers: { ...NO_STORE, ...init.headers } },
  );
}

export function fileTooLarge(maxBytes: number, receivedBytes: number): ApiError {
  const maxMb = maxBytes / (1024 * 1024);
  return new ApiError(413, "file_too_large", `File size exceeds maximum allowed size of ${formatMb(maxMb)}MB`, {
    max_size_mb: maxMb,
    file_size_mb: Math.round((receivedBytes / (1024 * 1024)) * 100) / 100,
  });
}

/** A multipart request past the ceiling of `maxFiles` files at the per-file limit (plus framing). */
export function requestTooLarge(maxFiles: number, maxBytes: number, ceilingBytes: number): ApiError {
  const maxMb = maxBytes / (1024 * 1024);
  return new ApiError(413, "request_too_large", `The upload is too large: send at most ${maxFiles} files of up to ${formatMb(maxMb)}MB each`, {
    max_files: maxFiles,
    max_size_mb: maxMb,
    max_request_mb: Math.floor((ceilingBytes / (1024 * 1024)) * 100) / 100,
  });
}

/** Seconds a client is told to wait while the database is unreachable: a restart or failover takes about this long. */
export const DATABASE_RETRY_AFTER_S = 5;

/** 503 while the database is unreachable; the client may simply retry. */
export function databaseUnavailable(): ApiError {
  return new ApiError(
    503,
    "database_unavailable",
    "The database is unavailable right now. Try again in a few seconds.",
    { retry_after: DATABASE_RETRY_AFTER_S },
    { "Retry-After": String(DATABASE_RETRY_AFTER_S) },
  );
}

/** Seconds a client should wait after a full disk or a throttling object store. */
export const STORAGE_RETRY_AFTER_S = 30;

export function insufficientStorage(): ApiError {
  return new ApiError(
    507,
    "insufficient_storage",
    "Storage is full right now, so the file was not kept. Try again later.",
    { retry_after: STORAGE_RETRY_AFTER_S },
    { "Retry-After": String(STORAGE_RETRY_AFTER_S) },
  );
}

export function storageUnavailable(): ApiError {
  return new ApiError(
    503,
    "storage_unavailable",
    "File storage is busy or unavailable right now, so the file was not kept. Try again in a few seconds.",
    { retry_after: STORAGE_RETRY_AFTER_S },
    { "Retry-After": String(STORAGE_RETRY_AFTER_S) },
  );
}

function formatMb(mb: number): string {
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(2);
}
