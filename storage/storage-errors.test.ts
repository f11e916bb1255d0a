import { describe, expect, it } from "vitest";
import { isStorageFull, isStorageThrottled } from "./storage-errors.ts";

const coded = (code: string) => Object.assign(new Error(code), { code });

describe("isStorageFull", () => {
  it("knows a full volume or quota, also as a cause or inside an AggregateError", () => {
    expect(isStorageFull(coded("ENOSPC"))).toBe(true);
    expect(isStorageFull(coded("EDQUOT"))).toBe(true);
    expect(isStorageFull(new Error("write failed", { cause: coded("ENOSPC") }))).toBe(true);
    expect(isStorageFull(new AggregateError([new Error("x"), coded("ENOSPC")]))).toBe(true);
  });

  it("is false for other errors and non-errors", () => {
    for (const error of [coded("EACCES"), coded("enospc"), new Error("ENOSPC"), null, undefined, "ENOSPC", { code: 28 }]) expect(isStorageFull(error)).toBe(false);
  });

  it("stops following causes after a few levels, even in a loop", () => {
    const looped: Error & { cause?: unknown } = new Error("a");
    looped.cause = looped;
    expect(isStorageFull(looped)).toBe(false);
    let deep: unknown = coded("ENOSPC");
    for (let i = 0; i < 10; i++) deep = new Error("wrap", { cause: deep });
    expect(isStorageFull(deep)).toBe(false);
  });
});

describe("isStorageThrottled", () => {
  it("knows S3's, R2's and MinIO's slow-downs by name, code or status", () => {
    expect(isStorageThrottled(Object.assign(new Error("x"), { name: "SlowDown" }))).toBe(true);
    expect(isStorageThrottled({ Code: "RequestLimitExceeded" })).toBe(true);
    expect(isStorageThrottled({ $metadata: { httpStatusCode: 503 } })).toBe(true);
    expect(isStorageThrottled({ $metadata: { httpStatusCode: 429 } })).toBe(true);
    expect(isStorageThrottled(new Error("upload failed", { cause: { name: "ThrottlingException" } }))).toBe(true);
  });

  it("is false for other S3 failures", () => {
    for (const error of [{ name: "NoSuchKey", $metadata: { httpStatusCode: 404 } }, { $metadata: { httpStatusCode: 500 } }, { $metadata: {} }, new Error("SlowDown"), null]) {
      expect(isStorageThrottled(error)).toBe(false);
    }
  });
});
