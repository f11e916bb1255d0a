import { describe, expect, it } from "vitest";
import { pageTitle } from "~/lib/site";

describe("pageTitle", () => {
  it("puts the page before the product name", () => {
    expect(pageTitle("Pricing")).toBe("Pricing | Stash");
    expect(pageTitle("Pricing", "Evidence Locker")).toBe("Pricing | Evidence Locker");
  });
});
