import { describe, expect, it } from "vitest";
import { isLiveStatus } from "~/services/billing/subscriptions.server";

describe("isLiveStatus", () => {
  it("keeps a paid plan while Stripe is active, trialing or retrying", () => {
    for (const status of ["active", "trialing", "past_due"]) expect(isLiveStatus(status)).toBe(true);
    for (const status of ["canceled", "unpaid", "incomplete", "incomplete_expired", "paused", "ACTIVE", ""]) expect(isLiveStatus(status)).toBe(false);
  });
});
