/** Socket errors of a database that is down, restarting or out of reach. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE"]);
/**
 * SQLSTATEs of a server going away: admin_shutdown, crash_shutdown, cannot_connect_now (starting up
 * or shutting down) and too_many_connections; class 08 (connection exception) is matched whole.
 */
const SERVER_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);
/** What pg says when a connection dies without a code, or when the pool cannot get one in time. */
const MESSAGES = [/^Connection terminated/, /is not queryable/, /timeout exceeded when trying to connect/];
/**
 * A property rather than a class or symbol: the host and the app bundle each load their own copy of
 * this module, and the mark must survive the crossing.
 */
const MARK = "databaseUnavailable";

function isConnectionFailure(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const { code, message, errors, cause } = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === "string" && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof message === "string" && MESSAGES.some((pattern) => pattern.test(message))) return true;
  // A host name with IPv4 and IPv6 addresses fails with an AggregateError of both attempts.
  if (Array.isArray(errors) && errors.some((inner) => isConnectionFailure(inner, depth + 1))) return true;
  return isConnectionFailure(cause, depth + 1);
}

/**
 * Marks an error of the database driver that means "the database cannot be reached right now"
 * (as opposed to a bad query or a constraint), so callers can tell it from a socket error of S3 or
 * SMTP with the same code. Returns the error for rethrowing.
 */
export function markIfUnavailable(error: unknown): unknown {
  if (error && typeof error === "object" && isConnectionFailure(error)) {
    Object.defineProperty(error, MARK, { value: true, enumerable: false, configurable: true });
  }
  return error;
}

/** True for an error the database pool marked as an outage (or one caused by it): answer 503, retry later. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  if ((error as Record<string, unknown>)[MARK] === true) return true;
  return isDatabaseUnavailable((error as { cause?: unknown }).cause, depth + 1);
}

/** Failures to get a connection at all: refused, unresolvable or unreachable, or the server turning new sessions away. */
const CONNECT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "57P03", "53300"]);

/**
 * True when an outage error means no connection was made, so a statement was never sent: its
 * effects certainly did not happen. False for a connection lost mid-statement (the commit may have).
 */
export function failedBeforeSending(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const { code, message, errors, cause } = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === "string" && CONNECT_CODES.has(code)) return true;
  if (typeof message === "string" && /timeout exceeded when trying to connect/.test(message)) return true;
  if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => failedBeforeSending(inner, depth + 1))) return true;
  return failedBeforeSending(cause, depth + 1);
}

/**
 * True when PostgreSQL itself answered the statement with an error (a `DatabaseError`: severity and
 * SQLSTATE), an admin shutdown's "terminating connection" included: the statement's implicit
 * transaction was rolled back, so nothing it wrote was committed. False for a connection that
 * vanished without an answer, after which the commit may or may not have happened.
 */
export function answeredWithError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const { severity, code, cause } = error as { severity?: unknown; code?: unknown; cause?: unknown };
  if (typeof severity === "string" && typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return true;
  return answeredWithError(cause, depth + 1);
}
