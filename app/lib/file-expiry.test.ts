import { describe, expect, it } from "vitest";
import { expiryLabel, isExpiringSoon } from "~/lib/file-expiry";

const NOW = new Date("2026-11-26T12:00:00Z");
const inDays = (days: number) => new Date(NOW.getTime() + days * 86_400_000);

describe("files expiring soon", () => {
  it("are flagged within three days, already-due ones too, never without an expiry", () => {
    expect(isExpiringSoon(inDays(3), NOW)).toBe(true);
    expect(isExpiringSoon(inDays(3.0001), NOW)).toBe(false);
    expect(isExpiringSoon(inDays(-1), NOW)).toBe(true);
    expect(isExpiringSoon(inDays(1).toISOString(), NOW)).toBe(true);
    expect(isExpiringSoon(null, NOW)).toBe(false);
    expect(isExpiringSoon(undefined, NOW)).toBe(false);
  });

  it("say in whole days, rounded up, when they go", () => {
    expect(expiryLabel(inDays(0.1), NOW)).toBe("Expires in 1 day");
    expect(expiryLabel(inDays(1), NOW)).toBe("Expires in 1 day");
    expect(expiryLabel(inDays(1.5), NOW)).toBe("Expires in 2 days");
    expect(expiryLabel(NOW, NOW)).toBe("Expires today");
    expect(expiryLabel(inDays(-2), NOW)).toBe("Expires today");
  });
});
