import { afterEach, describe, expect, it } from "vitest";
import { RateLimits, rateLimitHeaders } from "~/services/platform/rate-limits.server";

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
});
