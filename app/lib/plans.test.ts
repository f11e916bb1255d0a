import { describe, expect, it } from "vitest";
import { ADDON_MAX_GB, formatGbp, isPaidTier, isTier, parseStorageGb, PLAN_LIST, PLANS, storageAddonPriceGbp, TIERS } from "~/lib/plans";

describe("the plans", () => {
  it("grow in storage and log allowance with the price", () => {
    expect(PLAN_LIST.map((p) => p.tier)).toEqual([...TIERS]);
    for (let i = 1; i < PLAN_LIST.length; i++) {
      expect(PLAN_LIST[i]!.priceGbp).toBeGreaterThan(PLAN_LIST[i - 1]!.priceGbp);
      expect(PLAN_LIST[i]!.storageGb).toBeGreaterThan(PLAN_LIST[i - 1]!.storageGb);
      expect(PLAN_LIST[i]!.logEntriesPerMonth).toBeGreaterThan(PLAN_LIST[i - 1]!.logEntriesPerMonth);
    }
    expect(PLANS.free.retentionDays).toBe(30);
    expect(PLAN_LIST.filter((p) => p.mostPopular).map((p) => p.tier)).toEqual(["professional"]);
  });

  it("tell tiers and paid tiers from anything else", () => {
    expect(TIERS.every(isTier)).toBe(true);
    for (const value of ["FREE", "enterprise", "", null, 1, "constructor"]) expect(isTier(value)).toBe(false);
    expect(isPaidTier("starter")).toBe(true);
    expect(isPaidTier("free")).toBe(false);
  });
});

describe("prices", () => {
  it("always show pence", () => {
    expect(formatGbp(4.99)).toBe("£4.99");
    expect(formatGbp(2.5)).toBe("£2.50");
    expect(formatGbp(0)).toBe("£0.00");
    expect(formatGbp(1234.5)).toBe("£1234.50");
  });

  it("price add-on storage at the tier's overage rate, to the penny", () => {
    expect(storageAddonPriceGbp("free", 10)).toBe(2.5);
    expect(storageAddonPriceGbp("starter", 3)).toBe(0.6);
    expect(storageAddonPriceGbp("business", 1000)).toBe(100);
    expect(storageAddonPriceGbp("starter", 7)).toBe(1.4);
  });

  it("read the add-on amount as the spec does: whole GB, capped, non-numbers as 0", () => {
    expect(parseStorageGb("25")).toBe(25);
    expect(parseStorageGb("12.9")).toBe(12);
    expect(parseStorageGb(12.9)).toBe(12);
    expect(parseStorageGb("7 GB")).toBe(7);
    expect(parseStorageGb(5000)).toBe(ADDON_MAX_GB);
    for (const value of ["abc", "", null, undefined, -3, 0, "0", Number.NaN, Number.POSITIVE_INFINITY]) expect(parseStorageGb(value), String(value)).toBe(0);
  });
});
