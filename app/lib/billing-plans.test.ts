import { describe, expect, it } from "vitest";
import { planButton } from "~/lib/billing-plans";

describe("plan buttons (customer portal §4)", () => {
  it("disable the current plan and free, and offer an upgrade only for more storage", () => {
    expect(planButton("starter", { tier: "starter", quotaGb: 25 })).toEqual({ label: "Current Plan", disabled: true });
    expect(planButton("free", { tier: "starter", quotaGb: 25 })).toEqual({ label: "Free Hosting", disabled: true });
    expect(planButton("professional", { tier: "starter", quotaGb: 25 })).toEqual({ label: "Upgrade", disabled: false });
    expect(planButton("starter", { tier: "free", quotaGb: 40 })).toEqual({ label: "Subscribe", disabled: false });
    expect(planButton("starter", { tier: "free", quotaGb: 25 })).toEqual({ label: "Subscribe", disabled: false });
  });
});
