import { describe, expect, it } from "vitest";
import { requestIdOf } from "~/http/access-log.server";

describe("requestIdOf", () => {
  it("keeps the caller's X-Request-Id up to 100 characters, else makes one", () => {
    expect(requestIdOf("abc-123")).toBe("abc-123");
    expect(requestIdOf("x".repeat(300))).toHaveLength(100);
    for (const header of [undefined, "", ["a", "b"]]) expect(requestIdOf(header)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(undefined)).not.toBe(requestIdOf(undefined));
  });
});
