import { afterEach, describe, expect, it } from "vitest";
import { RateLimits } from "~/services/platform/rate-limits.server";
import { consumeAuthLimit, refundAuthLimit, tooManyAttemptsMessage } from "~/services/accounts/sign-in-limits.server";

let limits: RateLimits;
afterEach(() => limits?.close());

describe("sign-in limits", () => {
  it("tell a person how many minutes to wait, at least one", () => {
    const result = (resetSeconds: number) => ({ allowed: false, limit: 1, remaining: 0, resetSeconds });
    expect(tooManyAttemptsMessage(result(0))).toBe("Too many attempts. Please wait 1 minute and try again.");
    expect(tooManyAttemptsMessage(result(60))).toBe("Too many attempts. Please wait 1 minute and try again.");
    expect(tooManyAttemptsMessage(result(61))).toBe("Too many attempts. Please wait 2 minutes and try again.");
    expect(tooManyAttemptsMessage(result(3600))).toBe("Too many attempts. Please wait 60 minutes and try again.");
  });

  it("count an account's attempts whatever the case of its address", async () => {
    limits = new RateLimits();
    for (let i = 0; i < 3; i++) expect((await consumeAuthLimit(limits, "resetAccount", i % 2 ? "Jo@Example.com" : "jo@example.com")).allowed).toBe(true);
    expect((await consumeAuthLimit(limits, "resetAccount", "JO@EXAMPLE.COM")).allowed).toBe(false);
    for (let i = 0; i < 3; i++) await consumeAuthLimit(limits, "resetAccount", "al@example.com");
    await refundAuthLimit(limits, "resetAccount", "AL@example.com");
    expect((await consumeAuthLimit(limits, "resetAccount", "al@example.com")).allowed).toBe(true);
  });
});
