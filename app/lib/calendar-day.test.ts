import { describe, expect, it } from "vitest";
import { isCalendarDay, startsOnCalendarDay } from "~/lib/calendar-day";

describe("isCalendarDay", () => {
  it("takes days that exist, leap days included", () => {
    for (const day of ["2026-01-01", "2026-12-31", "2028-02-29", "2000-02-29", "1970-01-01"]) expect(isCalendarDay(day), day).toBe(true);
  });

  it("refuses days JavaScript would roll over, and anything not YYYY-MM-DD", () => {
    for (const day of ["2026-02-29", "2100-02-29", "2026-02-30", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00", "2026-1-1", "26-01-01", " 2026-01-01", "2026-01-01T00:00Z", ""]) {
      expect(isCalendarDay(day), day).toBe(false);
    }
  });
});

describe("startsOnCalendarDay", () => {
  it("checks the day a date-time starts with, and lets other text through to its own parser", () => {
    expect(startsOnCalendarDay("2026-11-26T10:00:00Z")).toBe(true);
    expect(startsOnCalendarDay("2026-02-30T10:00:00Z")).toBe(false);
    expect(startsOnCalendarDay("2026-02-30")).toBe(false);
    expect(startsOnCalendarDay("Thu, 26 Nov 2026 10:00:00 GMT")).toBe(true);
    expect(startsOnCalendarDay("")).toBe(true);
  });
});
