import { describe, expect, it } from "vitest";
import { apiError, apiSuccess, ERROR_STATUS, errorBody, errorHeaders, errorResponse, methodNotAllowed } from "~/http/api-response.server";
import { ERROR_CODES } from "~/lib/error-codes";
import { DomainError, ERRORS } from "~/services/platform/domain-error.server";

describe("the error envelope", () => {
  it("carries every field known clients read, then the details", () => {
    expect(errorBody("file_too_large", "Too big", { max_size_mb: 50 })).toEqual({
      success: false,
      status: "error",
      error: "Too big",
      message: "Too big",
      code: "file_too_large",
      max_size_mb: 50,
    });
  });

  it("maps every code of the catalogue to an HTTP error status", () => {
    for (const code of ERROR_CODES) {
      expect(ERROR_STATUS[code], code).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code], code).toBeLessThan(600);
    }
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    expect(ERROR_STATUS.unsupported_file_type).toBe(415);
    expect(ERROR_STATUS.file_hidden).toBe(451);
    expect(ERROR_STATUS.insufficient_storage).toBe(507);
  });
});

describe("errorHeaders and errorResponse", () => {
  it("say when to come back: RateLimit fields for a spent limit, Retry-After otherwise, nothing for a plain refusal", () => {
    const limit = { allowed: false, limit: 60, remaining: 0, resetSeconds: 17 };
    expect(errorHeaders(ERRORS.rateLimited("Slow down", limit))).toEqual({ "RateLimit-Limit": "60", "RateLimit-Remaining": "0", "RateLimit-Reset": "17", "Retry-After": "17" });
    expect(errorHeaders(ERRORS.databaseUnavailable())).toEqual({ "Retry-After": "5" });
    expect(errorHeaders(new DomainError("not_found", "Gone"))).toEqual({});
  });

  it("answer with the code's status, no caching, and the envelope", async () => {
    const response = errorResponse(ERRORS.insufficientStorage());
    expect(response.status).toBe(507);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("Retry-After")).toBe("30");
    expect(await response.json()).toMatchObject({ success: false, code: "insufficient_storage", retry_after: 30 });
    expect((await apiError("not_found", "File not found").json()).error).toBe("File not found");
  });
});

describe("success and 405 answers", () => {
  it("put success, status and error first, and let a route choose status and headers", async () => {
    const response = apiSuccess({ id: "x" }, { status: 201, headers: { Location: "/x" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("Location")).toBe("/x");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(Object.keys(await response.json())).toEqual(["success", "status", "error", "id"]);
  });

  it("names the allowed methods on a 405", async () => {
    const response = methodNotAllowed("GET, POST", "Use GET or POST");
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, POST");
    expect((await response.json()).code).toBe("method_not_allowed");
  });
});
