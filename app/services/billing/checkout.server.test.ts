import { describe, expect, it } from "vitest";
import { validateStorageGb } from "~/services/billing/checkout.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

describe("validateStorageGb", () => {
  it("takes a whole number of GB from 1 to 1000, as a number or text", () => {
    expect(validateStorageGb(1)).toBe(1);
    expect(validateStorageGb(" 1000 ")).toBe(1000);
    expect(validateStorageGb("25")).toBe(25);
  });

  it("refuses anything else with the billing message", () => {
    for (const value of [0, 1001, 2.5, "2.5", "", "  ", "ten", null, undefined, Number.NaN, "1e3x", true]) {
      expect(refusal(() => validateStorageGb(value)).code, String(value)).toBe("invalid_request");
    }
  });
});
