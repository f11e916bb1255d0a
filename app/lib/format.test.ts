import { describe, expect, it } from "vitest";
import { barPercent, formatBytes, formatCount, formatDate, formatDateTime, formatDuration, formatPercent, isStorageLow, percentUsed } from "~/lib/format";

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

  it("stay in TB past the largest unit, and round fractional bytes", () => {
    expect(formatBytes(2048 * 1024 ** 4)).toBe("2048 TB");
    expect(formatBytes(1024 ** 5 - 1)).toBe("1024 TB");
    expect(formatBytes(511.6)).toBe("512 B");
    expect(formatBytes(1024 ** 3 - 1, 0)).toBe("1 GB");
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

  it("read negative usage as none and may pass 100 for an account over its quota", () => {
    expect(percentUsed(-10, 100)).toBe(0);
    expect(percentUsed(150, 100)).toBe(150);
    expect(percentUsed(10, -1)).toBe(0);
    expect(barPercent(-3)).toBe(0);
  });

  it("warn about low storage only above 90%", () => {
    expect(isStorageLow(90)).toBe(false);
    expect(isStorageLow(90.01)).toBe(true);
    expect(isStorageLow(250)).toBe(true);
  });
});

describe("counts", () => {
  it("separate thousands and choose the noun by the count", () => {
    expect(formatCount(0, "file")).toBe("0 files");
    expect(formatCount(1, "file")).toBe("1 file");
    expect(formatCount(12_400, "file")).toBe("12,400 files");
    expect(formatCount(2, "log entry", "log entries")).toBe("2 log entries");
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

  it("use UTC whatever the offset of the input", () => {
    expect(formatDate("2026-11-27T00:30:00+02:00")).toBe("26 Nov 2026");
    expect(formatDateTime("2026-11-26T23:59:00-01:00")).toBe("27 Nov 2026, 00:59 UTC");
    expect(formatDate("")).toBe("Never");
  });
});

describe("durations", () => {
  it("print minutes and seconds, hours only when there are some", () => {
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(7_000)).toBe("0:07");
    expect(formatDuration(65_000)).toBe("1:05");
    expect(formatDuration(3_723_000)).toBe("1:02:03");
    expect(formatDuration(59_600)).toBe("1:00");
  });
});
