import type { IncomingMessage, ServerResponse } from "node:http";

/** The script API and file paths are called from game UIs (`https://cfx-nui-<resource>`) and any other origin. */
export const CORS_PATHS = /^\/(api|f)(\/|$)/;

const ALLOW_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const DEFAULT_ALLOW_HEADERS = "Authorization, X-Api-Key, Content-Type, Range, If-None-Match, X-Requested-With";
const EXPOSE_HEADERS = [
  "Content-Length",
  "Content-Range",
  "Content-Disposition",
  "Accept-Ranges",
  "ETag",
  "X-Request-Id",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  // tus (resumable uploads): where the upload lives and how far it got.
  "Location",
  "Upload-Offset",
  "Upload-Length",
  "Upload-Expires",
  "Upload-Metadata",
  "Tus-Resumable",
  "Tus-Version",
  "Tus-Max-Size",
  "Tus-Extension",
].join(", ");
/** Header names only: whatever else a preflight asks for is not echoed back. */
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

/**
 * CORS for any origin without credentials: no cookie is read on these paths, so `*` is safe.
 * Answers preflights itself (204) and returns true when it did.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse): boolean {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Expose-Headers", EXPOSE_HEADERS);
  if (req.method !== "OPTIONS") return false;
  const requested = String(req.headers["access-control-request-headers"] ?? "").trim();
  res.setHeader("Access-Control-Allow-Methods", ALLOW_METHODS);
  res.setHeader("Access-Control-Allow-Headers", requested && HEADER_LIST.test(requested) ? requested : DEFAULT_ALLOW_HEADERS);
  res.setHeader("Access-Control-Max-Age", "86400");
  res.setHeader("Vary", "Access-Control-Request-Headers");
  res.statusCode = 204;
  res.end();
  return true;
}
