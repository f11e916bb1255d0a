import { describe, expect, it } from "vitest";
import { parseShareOptions, SHARE_MAX_VIEWS_LIMIT } from "~/services/files/file-shares.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

describe("parseShareOptions", () => {
  it("defaults to a link that never expires, without password or view limit", () => {
    expect(parseShareOptions({})).toEqual({ expiresInHours: null, password: null, maxViews: null });
    expect(parseShareOptions({ expiresInHours: "never", password: "", maxViews: "  " })).toEqual({ expiresInHours: null, password: null, maxViews: null });
  });

  it("offers 1 hour, 1 day, 1 week and 30 days only", () => {
    for (const hours of ["1", "24", "168", 720]) expect(parseShareOptions({ expiresInHours: hours }).expiresInHours).toBe(Number(hours));
    for (const hours of ["2", "0", "-1", "forever", "", "1.0e0x"]) expect(refusal(() => parseShareOptions({ expiresInHours: hours })).message, hours).toBe("Choose when the link expires");
  });

  it("keeps a password of 8 to 128 characters exactly as typed", () => {
    expect(parseShareOptions({ password: "  spaced  " }).password).toBe("  spaced  ");
    expect(parseShareOptions({ password: "p".repeat(128) }).password).toHaveLength(128);
    for (const password of ["short", "p".repeat(129)]) expect(refusal(() => parseShareOptions({ password })).message).toBe("A share password needs 8 to 128 characters");
    expect(parseShareOptions({ password: 12345678 }).password).toBeNull();
  });

  it("takes a whole view limit from 1 to 100,000", () => {
    expect(parseShareOptions({ maxViews: " 5 " }).maxViews).toBe(5);
    expect(parseShareOptions({ maxViews: String(SHARE_MAX_VIEWS_LIMIT) }).maxViews).toBe(SHARE_MAX_VIEWS_LIMIT);
    for (const maxViews of ["0", "-3", "2.5", "100001", "ten"]) expect(refusal(() => parseShareOptions({ maxViews })).message, maxViews).toBe("View limit must be a whole number from 1 to 100000");
  });
});
