import { describe, expect, it } from "vitest";
import { accountLink } from "~/services/accounts/account-mail.server";

describe("accountLink", () => {
  it("links each account mail to its page with the token escaped", () => {
    const config = { appUrl: "https://stash.example" };
    expect(accountLink(config, "confirm", "a+b/c")).toBe("https://stash.example/auth/confirm?token=a%2Bb%2Fc");
    expect(accountLink(config, "reset", "t")).toBe("https://stash.example/auth/reset-password?token=t");
    expect(accountLink(config, "change", "t")).toBe("https://stash.example/auth/confirm-email-change?token=t");
  });
});
