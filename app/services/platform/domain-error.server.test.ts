import { describe, expect, it } from "vitest";
import { DomainError, ERRORS, isDomainError } from "~/services/platform/domain-error.server";

const MB = 1024 * 1024;

describe("the shared refusals", () => {
  it("say a file is too large in whole or two-decimal MB, with both sizes", () => {
    expect(ERRORS.fileTooLarge(50 * MB, 75.5 * MB)).toMatchObject({ code: "file_too_large", message: "File size exceeds maximum allowed size of 50MB", details: { max_size_mb: 50, file_size_mb: 75.5 } });
    expect(ERRORS.fileTooLarge(1.5 * MB, MB + 1).message).toBe("File size exceeds maximum allowed size of 1.50MB");
    expect(ERRORS.fileTooLarge(MB, 1234567).details.file_size_mb).toBe(1.18);
  });

  it("say how many files of what size a request may carry", () => {
    const error = ERRORS.requestTooLarge(20, 10 * MB, 207.25 * MB + 999);
    expect(error.message).toBe("The upload is too large: send at most 20 files of up to 10MB each");
    expect(error.details).toEqual({ max_files: 20, max_size_mb: 10, max_request_mb: 207.25 });
  });

  it("tell a rate-limited caller when to come back", () => {
    const limit = { allowed: false, limit: 5, remaining: 0, resetSeconds: 42 };
    expect(ERRORS.rateLimited("Slow down", limit)).toMatchObject({ code: "rate_limited", details: { retry_after: 42 }, retry: { afterSeconds: 42, limit } });
    expect(ERRORS.storageUnavailable().retry).toEqual({ afterSeconds: 30 });
  });

  it("are told apart by code", () => {
    const error = new DomainError("not_found", "Gone");
    expect(isDomainError(error)).toBe(true);
    expect(isDomainError(error, "not_found", "file_hidden")).toBe(true);
    expect(isDomainError(error, "invalid_request")).toBe(false);
    expect(isDomainError(new Error("Gone"))).toBe(false);
    expect(isDomainError({ code: "not_found" })).toBe(false);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("DomainError");
  });
});
