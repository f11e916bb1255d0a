import { describe, expect, it } from "vitest";
import { barPercent, formatBytes, formatDate, formatDateTime, formatPercent, percentUsed } from "../../app/lib/format.ts";

describe("sizes", () => {
  it("pick the unit that keeps the figure readable, 1024-based", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1)).toBe("1 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1 KB");
    expect(formatBytes(10 * 1024)).toBe("10 KB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(1.65 * 1024 ** 2)).toBe("1.65 MB");
    expect(formatBytes(1.5 * 1024 ** 3)).toBe("1.5 GB");
    expect(formatBytes(5 * 1024 ** 3)).toBe("5 GB");
    expect(formatBytes(3 * 1024 ** 4)).toBe("3 TB");
  });

  it("take the spec's decimals where it names them, and never print 1024 of a unit", () => {
    expect(formatBytes(2.46 * 1024 ** 2, 1)).toBe("2.5 MB");
    expect(formatBytes(1024 ** 2 - 1)).toBe("1 MB");
    expect(formatBytes(-5)).toBe("0 B");
  });

  it("give axis ticks that differ when the values do", () => {
    const ticks = [1.4, 1.2, 0.86].map((mb) => formatBytes(mb * 1024 ** 2, 1));
    expect(ticks).toEqual(["1.4 MB", "1.2 MB", "880.6 KB"]);
    expect(new Set(ticks).size).toBe(3);
  });
});

describe("quota shares", () => {
  it("come from the same bytes as the figures, with two decimals, and bars stop at 100", () => {
    expect(percentUsed(1.65 * 1024 ** 2, 5 * 1024 ** 3)).toBe(0.03);
    expect(formatPercent(percentUsed(1.65 * 1024 ** 2, 5 * 1024 ** 3))).toBe("0.03%");
    expect(formatPercent(92)).toBe("92%");
    expect(percentUsed(10, 0)).toBe(0);
    expect(barPercent(percentUsed(6, 5))).toBe(100);
  });
});

describe("dates", () => {
  it("read the same on the server and in the browser (en-GB, UTC)", () => {
    expect(formatDate("2026-11-26T23:30:00Z")).toBe("26 Nov 2026");
    expect(formatDate(new Date("2026-01-02T00:00:00Z"))).toBe("2 Jan 2026");
    expect(formatDateTime("2026-11-26T04:42:00Z")).toBe("26 Nov 2026, 04:42 UTC");
    expect(formatDate(null)).toBe("Never");
    expect(formatDateTime(undefined)).toBe("Never");
  });
});
