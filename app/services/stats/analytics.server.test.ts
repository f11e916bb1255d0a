import { describe, expect, it } from "vitest";
import { parseRange } from "~/services/stats/analytics.server";

describe("analytics ranges", () => {
  it("are 7, 30 or 90 days, 30 for anything else", () => {
    expect(parseRange("7")).toBe(7);
    expect(parseRange("90")).toBe(90);
    for (const value of [null, "", "14", "7.0x", "-7", "365", "abc"]) expect(parseRange(value)).toBe(30);
  });
});
