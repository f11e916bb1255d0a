import { describe, expect, it } from "vitest";
import { initials } from "~/lib/initials";

describe("initials", () => {
  it("takes up to two letters", () => {
    expect(initials("Jane Ann Doe")).toBe("JA");
    expect(initials("jane")).toBe("JA");
    expect(initials(null, "zed@example.com")).toBe("Z");
    expect(initials("", "")).toBe("U");
  });

  it("splits on any whitespace and never cuts an emoji or accented letter in half", () => {
    expect(initials("  jane \t doe ")).toBe("JD");
    expect(initials("🚓 Unit")).toBe("🚓U");
    expect(initials("Élodie")).toBe("ÉL");
    expect(initials(undefined, null)).toBe("U");
    expect(initials("   ", "ø@example.com")).toBe("Ø");
  });
});
