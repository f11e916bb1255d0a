/**
 * Limits that hold under bursts and hurt only the guilty: every attempt is counted before it is
 * checked, so parallel bursts cannot slip past a limit, and a game server whose one misconfigured
 * resource keeps failing still serves its other resources with their valid key.
 */
import { describe, expect } from "vitest";
import { API_RATE_LIMITS, FAILED_KEY_ATTEMPTS } from "../../app/lib/api-limits.ts";
import { AUTH_LIMITS } from "../../app/services/accounts/sign-in-limits.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { createTestUser, postForm } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import { form, png } from "../helpers/upload-fixtures.ts";

/** A request as seen behind the host's trusted proxy (loopback by default) from `ip`. */
const from = (ip: string) => ({ "X-Forwarded-For": ip });

function tally(statuses: number[]): Record<number, number> {
  return statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
}

describe("sign-in, per account", { timeout: 120_000 }, () => {
  test("checks no more wrong passwords than the limit when they arrive in parallel from many addresses", async ({ server }) => {
    const { email, password } = await createTestUser(server.ctx);
    const burst = 30;
    const statuses = await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        postForm(server, "/auth", { intent: "signin", email, password: `wrong-${i}` }, { headers: from(`198.51.100.${i + 1}`) }).then((r) => r.status),
      ),
    );
    const counts = tally(statuses);
    // Each 401 is a password actually checked; the rest were refused before any check.
    expect(counts[401]).toBe(AUTH_LIMITS.signInAccountFailures.points);
    expect(counts[429]).toBe(burst - AUTH_LIMITS.signInAccountFailures.points);
    // The account stays locked for its window, the right password included.
    expect((await postForm(server, "/auth", { intent: "signin", email, password }, { headers: from("203.0.113.9") })).status).toBe(429);
  });

  test("does not count successful sign-ins against the account", async ({ server }) => {
    const { email, password } = await createTestUser(server.ctx);
    for (let i = 0; i < AUTH_LIMITS.signInAccountFailures.points + 3; i++) {
      const res = await postForm(server, "/auth", { intent: "signin", email, password }, { headers: from(`192.0.2.${i + 1}`) });
      expect(res.status, `sign-in ${i + 1}`).toBe(302);
    }
  });
});

describe("failed API keys, per address", { timeout: 120_000 }, () => {
  let game: SeededAccount;
  const city = "203.0.113.77";

  test.beforeAll(async ({ server }) => {
    game = await seedAccount(server.ctx);
  });

  test("lets at most the limit of 1,000 parallel bad keys reach the database, refusing the rest with 429", async ({ server }) => {
    const statuses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        server
          .request("/api/search", { headers: { ...from(city), "x-api-key": `sk_${String(i).padStart(40, "x")}` } })
          .then(async (r) => {
            await r.arrayBuffer();
            return r.status;
          }),
      ),
    );
    const counts = tally(statuses);
    // A 401 is a key looked up and not found; a 429 was refused from memory.
    expect(counts[401]).toBe(FAILED_KEY_ATTEMPTS.points);
    expect(counts[429]).toBe(1000 - FAILED_KEY_ATTEMPTS.points);
  });

  test("still serves a valid key from that address, and keeps refusing the bad one", async ({ server }) => {
    const search = await server.request("/api/search", { headers: { ...from(city), "x-api-key": game.key } });
    expect(search.status).toBe(200);
    const upload = await server.request("/api/upload", {
      method: "POST",
      headers: { ...from(city), "x-api-key": game.key },
      body: form([{ field: "file", data: await png(12, 12), filename: "mugshot.png", type: "image/png" }]),
    });
    expect(upload.status).toBe(201);
    const webhook = await server.request(`/api/webhooks/${game.serverId}/${game.webhookSecret}`, {
      method: "POST",
      headers: { ...from(city), "Content-Type": "application/json" },
      body: JSON.stringify({ content: "still here" }),
    });
    // A message without files is answered like Discord answers it: 204 (it became a log entry).
    expect(webhook.status).toBe(204);
    const bad = await server.request("/api/search", { headers: { ...from(city), "x-api-key": `sk_${"y".repeat(40)}` } });
    expect(bad.status).toBe(429);
    expect(await bad.json()).toMatchObject({ code: "rate_limited" });
    // A valid key's calls are not failures: the per-server budget is what applies to them.
    expect(search.headers.get("ratelimit-limit")).toBe(String(API_RATE_LIMITS.free.requestsPerMinute));
  });
});
