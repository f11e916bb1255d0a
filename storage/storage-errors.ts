/** Filesystem codes of a volume that cannot take more bytes: out of space, or over a disk quota. */
const FULL_CODES = new Set(["ENOSPC", "EDQUOT"]);
/** S3 error names for "slow down": AWS S3, R2 and MinIO use these when throttling or overloaded. */
const THROTTLE_NAMES = new Set([
  "SlowDown",
  "ServiceUnavailable",
  "Throttling",
  "ThrottlingException",
  "RequestLimitExceeded",
  "RequestThrottled",
  "TooManyRequestsException",
]);

function matches(error: unknown, test: (error: Record<string, unknown>) => boolean, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  if (test(error as Record<string, unknown>)) return true;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.some((inner) => matches(inner, test, depth + 1))) return true;
  return matches(cause, test, depth + 1);
}

/** The blob store's volume is full (ENOSPC) or over its quota (EDQUOT): answer 507, not 500. */
export function isStorageFull(error: unknown): boolean {
  return matches(error, (e) => typeof e.code === "string" && FULL_CODES.has(e.code));
}

/**
 * The object store is throttling or unavailable and the SDK's bounded retries are spent: answer
 * 503 with Retry-After. Matched by name and status, not class, so any copy of the SDK qualifies.
 */
export function isStorageThrottled(error: unknown): boolean {
  return matches(error, (e) => {
    if (typeof e.name === "string" && THROTTLE_NAMES.has(e.name)) return true;
    if (typeof e.Code === "string" && THROTTLE_NAMES.has(e.Code)) return true;
    const status = (e.$metadata as { httpStatusCode?: number } | undefined)?.httpStatusCode;
    return status === 503 || status === 429;
  });
}
