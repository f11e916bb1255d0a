import { describe, expect, it } from "vitest";
import { defaultDisplayName, normaliseEmail } from "~/services/accounts/users.server";

describe("accounts", () => {
  it("compare e-mail addresses trimmed and lower-cased", () => {
    expect(normaliseEmail("  Jo.Doe@Example.COM ")).toBe("jo.doe@example.com");
  });

  it("name an account from sign-up, else the address, else User", () => {
    expect(defaultDisplayName("  Officer Jo ", "jo@example.com")).toBe("Officer Jo");
    expect(defaultDisplayName("   ", "jo.doe@example.com")).toBe("jo.doe");
    expect(defaultDisplayName(null, "@example.com")).toBe("User");
    expect(defaultDisplayName(undefined, null)).toBe("User");
  });
});
