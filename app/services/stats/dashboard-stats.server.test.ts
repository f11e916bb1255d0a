import { describe, expect, it } from "vitest";
import { windowStartDay } from "~/services/stats/dashboard-stats.server";
import { usageDay } from "~/services/api-keys/key-usage.server";

describe("day windows", () => {
  it("start a window of n days n-1 days before today, in UTC", () => {
    const now = new Date("2026-03-01T23:30:00Z");
    expect(windowStartDay(1, now)).toBe("2026-03-01");
    expect(windowStartDay(7, now)).toBe("2026-02-23");
    expect(windowStartDay(30, now)).toBe("2026-01-31");
    // 2028 is a leap year: 366 days ending on New Year's Day 2029 start on 2 January 2028.
    expect(windowStartDay(366, new Date("2029-01-01T00:00:00Z"))).toBe("2028-01-02");
  });

  it("ignore the host's time zone", () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/Los_Angeles";
    try {
      // 03:00 UTC on the 26th is still the 25th in Los Angeles.
      expect(windowStartDay(1, new Date("2026-11-26T03:00:00Z"))).toBe("2026-11-26");
      expect(usageDay(new Date("2026-11-26T03:00:00Z"))).toBe("2026-11-26");
      process.env.TZ = "Pacific/Kiritimati";
      expect(windowStartDay(2, new Date("2026-11-26T23:00:00Z"))).toBe("2026-11-25");
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
