import type { ErrorCode } from "~/lib/error-codes";
import type { LimitResult } from "~/services/platform/rate-limits.server";

/**
 * The one error services throw for a refusal a user should read (docs/decisions/071): a code from
 * the catalogue, a message written for the user and the fields scripts read beside it. The HTTP
 * status comes from the code, in app/http; services never choose one.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** How long the caller should wait before trying again (Retry-After, RateLimit fields). */
    readonly retry: { afterSeconds: number; limit?: LimitResult } | null = null,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export function isDomainError(error: unknown, ...codes: ErrorCode[]): error is DomainError {
  return error instanceof DomainError && (codes.length === 0 || codes.includes(error.code));
}

/** Seconds a client is told to wait while the database is unreachable: a restart or failover takes about this long. */
export const DATABASE_RETRY_AFTER_S = 5;

/** Seconds a client should wait after a full disk or a throttling object store. */
export const STORAGE_RETRY_AFTER_S = 30;

/** The refusals raised in more than one place, so their words and fields never drift. */
export const ERRORS = {
  notFound: (message = "File not found") => new DomainError("not_found", message),
  fileHidden: () => new DomainError("file_hidden", "This file is unavailable: it was reported and is hidden while it is reviewed."),
  invalidRequest: (message: string, details: Record<string, unknown> = {}) => new DomainError("invalid_request", message, details),

  fileTooLarge(maxBytes: number, receivedBytes: number) {
    const maxMb = maxBytes / (1024 * 1024);
    return new DomainError("file_too_large", `File size exceeds maximum allowed size of ${formatMb(maxMb)}MB`, {
      max_size_mb: maxMb,
      file_size_mb: Math.round((receivedBytes / (1024 * 1024)) * 100) / 100,
    });
  },

  /** A multipart request past the ceiling of `maxFiles` files at the per-file limit (plus framing). */
  requestTooLarge(maxFiles: number, maxBytes: number, ceilingBytes: number) {
    const maxMb = maxBytes / (1024 * 1024);
    return new DomainError("request_too_large", `The upload is too large: send at most ${maxFiles} files of up to ${formatMb(maxMb)}MB each`, {
      max_files: maxFiles,
      max_size_mb: maxMb,
      max_request_mb: Math.floor((ceilingBytes / (1024 * 1024)) * 100) / 100,
    });
  },

  rateLimited: (message: string, limit: LimitResult) =>
    new DomainError("rate_limited", message, { retry_after: limit.resetSeconds }, { afterSeconds: limit.resetSeconds, limit }),

  databaseUnavailable: () =>
    new DomainError(
      "database_unavailable",
      "The database is unavailable right now. Try again in a few seconds.",
      { retry_after: DATABASE_RETRY_AFTER_S },
      { afterSeconds: DATABASE_RETRY_AFTER_S },
    ),

  insufficientStorage: () =>
    new DomainError(
      "insufficient_storage",
      "Storage is full right now, so the file was not kept. Try again later.",
      { retry_after: STORAGE_RETRY_AFTER_S },
      { afterSeconds: STORAGE_RETRY_AFTER_S },
    ),

  storageUnavailable: () =>
    new DomainError(
      "storage_unavailable",
      "File storage is busy or unavailable right now, so the file was not kept. Try again in a few seconds.",
      { retry_after: STORAGE_RETRY_AFTER_S },
      { afterSeconds: STORAGE_RETRY_AFTER_S },
    ),
};

function formatMb(mb: number): string {
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(2);
}
