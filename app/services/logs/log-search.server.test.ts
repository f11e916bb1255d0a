import { describe, expect, it } from "vitest";
import { decodeLogCursor, encodeLogCursor, logFiltersOf } from "~/services/logs/log-search.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

const q = (query: string) => new URLSearchParams(query);

describe("log cursors", () => {
  it("round-trip an entry's time and id, microsecond-free", () => {
    const entry = { ts: new Date("2026-11-26T11:59:30.123Z"), id: "98765432101234" };
    const cursor = encodeLogCursor(entry);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeLogCursor(cursor)).toEqual(entry);
  });

  it("read nothing as the first page and refuse a cursor that was not ours", () => {
    expect(decodeLogCursor(undefined)).toBeUndefined();
    expect(decodeLogCursor("")).toBeUndefined();
    for (const bad of ["garbage", Buffer.from("2026-11-26T00:00:00Z|abc").toString("base64url"), Buffer.from("not a date|12").toString("base64url"), Buffer.from("2026-11-26T00:00:00Z").toString("base64url")]) {
      expect(refusal(() => decodeLogCursor(bad)).message, bad).toBe("cursor is not valid");
    }
  });
});

describe("logFiltersOf", () => {
  it("reads every filter, trimmed, with the level lower-cased", () => {
    expect(logFiltersOf(q("dataset=+economy+&level=WARN&resource=bank&q=+robbery+&from=2026-11-01&to=2026-11-02T10:00&meta=plate=ABC+1&meta=+car+=+ +"))).toEqual({
      dataset: "economy",
      level: "warn",
      resource: "bank",
      q: "robbery",
      from: new Date("2026-11-01T00:00:00Z"),
      to: new Date("2026-11-02T10:00:00Z"),
      meta: [
        ["plate", "ABC 1"],
        ["car", ""],
      ],
    });
  });

  it("treats blanks as unset", () => {
    expect(logFiltersOf(q("dataset=&level=+&resource=&q=&from=&to="))).toEqual({ meta: [] });
  });

  it("reads a wall-clock time as UTC on a host in any zone, and keeps an explicit offset", () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      expect(logFiltersOf(q("from=2026-11-26T10:00:30.5")).from).toEqual(new Date("2026-11-26T10:00:30.500Z"));
      expect(logFiltersOf(q("from=2026-11-26T10:00%2B02:00")).from).toEqual(new Date("2026-11-26T08:00:00Z"));
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("refuses an unknown level, a date it cannot read and a meta filter without a key", () => {
    expect(refusal(() => logFiltersOf(q("level=warning"))).message).toBe("level must be one of trace, debug, info, warn, error, fatal");
    expect(refusal(() => logFiltersOf(q("from=yesterday"))).message).toBe("from must be a date or time (ISO 8601)");
    expect(refusal(() => logFiltersOf(q("to=2026-13-45"))).message).toBe("to must be a date or time (ISO 8601)");
    expect(refusal(() => logFiltersOf(q("from=2026-02-30T10:00"))).message).toBe("from must be a date or time (ISO 8601)");
    for (const meta of ["plate", "=ABC", ""]) expect(refusal(() => logFiltersOf(q(`meta=${meta}`))).message).toBe("meta filters look like key=value");
  });
});
