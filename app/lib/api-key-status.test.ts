import { describe, expect, it } from "vitest";
import { apiKeyStatusLabel } from "~/lib/api-key-status";

const NOW = new Date("2026-11-26T12:00:00Z");

describe("apiKeyStatusLabel", () => {
  it("says Expired once the expiry has passed, before anything else", () => {
    expect(apiKeyStatusLabel("active", "2026-11-26T11:59:59Z", NOW)).toBe("Expired");
    expect(apiKeyStatusLabel("revoked", new Date("2020-01-01"), NOW)).toBe("Expired");
    expect(apiKeyStatusLabel("active", "2026-11-26T12:00:00Z", NOW)).toBe("Active");
  });

  it("labels known statuses and shows unknown ones as stored", () => {
    expect(apiKeyStatusLabel("active", null, NOW)).toBe("Active");
    expect(apiKeyStatusLabel("revoked", "2030-01-01T00:00:00Z", NOW)).toBe("Revoked");
    expect(apiKeyStatusLabel("suspended", null, NOW)).toBe("suspended");
  });
});
