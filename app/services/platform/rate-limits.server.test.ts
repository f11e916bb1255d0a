import { afterEach, describe, expect, it } from "vitest";
import { RateLimits, rateLimitHeaders } from "~/services/platform/rate-limits.server";
import { consumeAuthLimit, refundAuthLimit, tooManyAttemptsMessage } from "~/services/accounts/sign-in-limits.server";

let limits: RateLimits;
afterEach(() => limits?.close());

describe("RateLimits in memory", () => {
  it("counts down a key's budget, then refuses with the time to wait", async () => {
    limits = new RateLimits();
    const rule = { points: 2, duration: 60 };
    expect(await limits.consume("test", "k", rule)).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(await limits.consume("test", "k", rule)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await limits.consume("test", "k", rule);
    expect(refused).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(59);
    expect(refused.resetSeconds).toBeLessThanOrEqual(60);
  });

  it("keeps keys, names and rules apart, and spends a cost in one go", async () => {
    limits = new RateLimits();
    const rule = { points: 3, duration: 60 };
    expect((await limits.consume("a", "k", rule, 3)).allowed).toBe(true);
    expect((await limits.consume("a", "other", rule)).allowed).toBe(true);
    expect((await limits.consume("b", "k", rule)).allowed).toBe(true);
    expect((await limits.consume("a", "k", { points: 10, duration: 60 })).allowed).toBe(true);
    expect((await limits.consume("a", "k", rule)).allowed).toBe(false);
    expect((await limits.consume("c", "k", rule, 4)).allowed).toBe(false);
  });

  it("gives back points a valid attempt reserved", async () => {
    limits = new RateLimits();
    const rule = { points: 1, duration: 60 };
    await limits.consume("r", "k", rule);
    await limits.reward("r", "k", rule);
    expect((await limits.consume("r", "k", rule)).allowed).toBe(true);
  });
});

describe("rate limit answers", () => {
  it("carry the IETF fields, and Retry-After only when refused", () => {
    expect(rateLimitHeaders({ allowed: true, limit: 60, remaining: 59, resetSeconds: 60 })).toEqual({ "RateLimit-Limit": "60", "RateLimit-Remaining": "59", "RateLimit-Reset": "60" });
    expect(rateLimitHeaders({ allowed: false, limit: 60, remaining: 0, resetSeconds: 7 })).toMatchObject({ "Retry-After": "7" });
  });

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
