import { DomainError } from "~/services/platform/domain-error.server";

const SMALL_BODY_BYTES = 64 * 1024;

/** A small JSON or form body as a plain object (empty body → {}); 400 when it is neither or too large. */
export async function readSmallBody(request: Request): Promise<Record<string, unknown>> {
  if (Number(request.headers.get("content-length") ?? 0) > SMALL_BODY_BYTES) {
    throw new DomainError("invalid_request", "The request body is too large");
  }
  const text = (await request.text()).trim();
  if (text.length > SMALL_BODY_BYTES) throw new DomainError("invalid_request", "The request body is too large");
  if (!text) return {};
  if ((request.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Falls through to the same answer as a non-object.
  }
  throw new DomainError("invalid_request", "The body must be a JSON object");
}
