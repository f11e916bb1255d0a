import { describe, expect, it } from "vitest";
import { auditFiltersOf, auditRetentionDays, dayStart, decodeAuditCursor, encodeAuditCursor } from "~/services/platform/audit-trail.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

describe("auditFiltersOf", () => {
  it("reads the page's filters, blanks as unset, and only known actor kinds", () => {
    expect(auditFiltersOf(new URLSearchParams("action=key.create&actor=key&server=srv1&from=2026-11-01&to=2026-11-30"))).toEqual({
      action: "key.create",
      actor: "key",
      serverId: "srv1",
      from: "2026-11-01",
      to: "2026-11-30",
    });
    expect(auditFiltersOf(new URLSearchParams("action=&actor=robot&server="))).toEqual({ action: undefined, actor: undefined, serverId: undefined, from: undefined, to: undefined });
    expect(auditFiltersOf(new URLSearchParams("actor=KEY")).actor).toBeUndefined();
  });
});

describe("dayStart", () => {
  it("is the day's first UTC moment", () => {
    expect(dayStart("2026-11-26", "from")).toEqual(new Date("2026-11-26T00:00:00Z"));
    expect(dayStart("2028-02-29", "to")).toEqual(new Date("2028-02-29T00:00:00Z"));
  });

  it("refuses a day that does not exist or is not YYYY-MM-DD, naming the field", () => {
    for (const value of ["2026-02-30", "2026-02-29", "2026-13-01", "26/11/2026", "2026-11-26T10:00", "today"]) {
      expect(refusal(() => dayStart(value, "to")), value).toMatchObject({ message: "to must be a date (YYYY-MM-DD)", details: { field: "to" } });
    }
  });
});

describe("audit cursors", () => {
  it("round-trip an entry's time and id", () => {
    const entry = { createdAt: new Date("2026-11-26T11:59:30.123Z"), id: 987654321 };
    expect(encodeAuditCursor(entry)).toBe("2026-11-26T11:59:30.123Z_987654321");
    expect(decodeAuditCursor(encodeAuditCursor(entry))).toEqual({ at: entry.createdAt, id: entry.id });
  });

  it("read anything else as the first page", () => {
    for (const value of [null, "", "x", "2026-11-26T11:59:30.123Z", "2026-11-26T11:59:30.123Z_", "2026-11-26T11:59:30.123Z_-1", "2026-11-26T11:59:30Z_1234567890123456789", "2026-19-26T11:59:30Z_1", "2026-11-26T11:59:30.123Z_1;drop"]) {
      expect(decodeAuditCursor(value), String(value)).toBeUndefined();
    }
  });
});

describe("auditRetentionDays", () => {
  it("keeps entries as long as the plan says, free for anything unknown", () => {
    expect(auditRetentionDays("free")).toBe(30);
    expect(auditRetentionDays("starter")).toBe(90);
    expect(auditRetentionDays("business")).toBe(365);
    for (const tier of [null, undefined, "", "enterprise", "FREE"]) expect(auditRetentionDays(tier)).toBe(30);
  });
});
