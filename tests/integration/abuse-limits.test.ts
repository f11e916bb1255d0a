/**
 * Limits that hold under bursts and hurt only the guilty: every attempt is counted before it is
 * checked, so parallel bursts cannot slip past a limit, and a game server whose one misconfigured
 * resource keeps failing still serves its other resources with their valid key.
 */
import { describe, expect } from "vitest";
import { API_RATE_LIMITS, FAILED_KEY_ATTEMPTS } from "../../app/lib/api-limits.ts";
import { AUTH_LIMITS } from "../../app/services/accounts/sign-in-limits.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { createTestUser, postForm, signUpAndSignIn } from "../helpers/auth.ts";
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

  test("lets keys and webhook URLs made after the budget ran out work from that address at once", async ({ server }) => {
    const owner = await signUpAndSignIn(server);
    const createServer = await postForm(
      server,
      "/servers.data",
      { name: "Paleto Bay RP", description: "", endpointUrl: "", maxFileSizeMb: "50", allowedFileTypes: ["png", "webp"] },
      { cookie: owner.cookie },
    );
    expect(createServer.status).toBe(200);
    const ownServer = await server.ctx.db.selectFrom("servers").select(["id", "webhook_secret"]).where("team_id", "=", owner.teamId).executeTakeFirstOrThrow();
    const search = (key: string) => server.request("/api/search", { headers: { ...from(city), "x-api-key": key } });

    // The script API's key manager (JSON), a create and a regenerate.
    const json = await server.request("/api/keys", {
      method: "POST",
      headers: { Cookie: owner.cookie, Origin: server.url, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "new phone key", server_id: ownServer.id }),
    });
    expect(json.status).toBe(201);
    const created = (await json.json()) as { api_key: string; data: { id: string } };
    expect((await search(created.api_key)).status).toBe(200);
    const again = await server.request("/api/keys", {
      method: "POST",
      headers: { Cookie: owner.cookie, Origin: server.url, "Content-Type": "application/json" },
      body: JSON.stringify({ key_id: created.data.id, operation: "regenerate" }),
    });
    expect(again.status).toBe(200);
    expect((await search(((await again.json()) as { api_key: string }).api_key)).status).toBe(200);

    // The API keys page: the action's data carries the new secret once.
    const page = await postForm(server, "/api-keys.data", { intent: "create", name: "Cameras", serverId: ownServer.id, expiresIn: "never", permissions: "read" }, { cookie: owner.cookie });
    expect(page.status).toBe(200);
    const secret = /sk_[A-Za-z0-9]+/.exec(await page.text())?.[0];
    expect(secret).toBeDefined();
    expect((await search(secret!)).status).toBe(200);
    const cameras = await server.ctx.db.selectFrom("api_keys").select("id").where("name", "=", "Cameras").executeTakeFirstOrThrow();
    const renewed = await postForm(server, "/api-keys.data", { intent: "regenerate", keyId: cameras.id }, { cookie: owner.cookie });
    const renewedSecret = /sk_[A-Za-z0-9]+/.exec(await renewed.text())?.[0];
    expect(renewedSecret).toBeDefined();
    expect(renewedSecret).not.toBe(secret);
    expect((await search(renewedSecret!)).status).toBe(200);

    // The new server's webhook URL, and the one a rotation makes.
    const hook = (secret: string) =>
      server.request(`/api/webhooks/${ownServer.id}/${secret}`, {
        method: "POST",
        headers: { ...from(city), "Content-Type": "application/json" },
        body: JSON.stringify({ content: "fresh hook" }),
      });
    expect((await hook(ownServer.webhook_secret)).status).toBe(204);
    const rotate = await postForm(server, `/servers/${ownServer.id}.data`, { intent: "webhook-rotate" }, { cookie: owner.cookie });
    expect(rotate.status).toBe(200);
    const rotated = await server.ctx.db.selectFrom("servers").select("webhook_secret").where("id", "=", ownServer.id).executeTakeFirstOrThrow();
    expect(rotated.webhook_secret).not.toBe(ownServer.webhook_secret);
    expect((await hook(rotated.webhook_secret)).status).toBe(204);
    // Guesses from the address are still refused from memory.
    expect((await search(`sk_${"z".repeat(40)}`)).status).toBe(429);
  });
});

describe("links to private files opened without a key", { timeout: 120_000 }, () => {
  test("spend none of the address's failed-key budget", async ({ server }) => {
    // A server as its owner makes it: default file types and settings.
    const game = await seedAccount(server.ctx, { server: { allowedFileTypes: undefined }, convertToWebp: true });
    const player = "198.51.100.200";
    const upload = await server.request("/api/upload?is_public=false", {
      method: "POST",
      headers: { "x-api-key": game.key },
      body: form([{ field: "file", data: await png(12, 12), filename: "evidence.png", type: "image/png" }]),
    });
    expect(upload.status).toBe(201);
    const { url } = (await upload.json()) as { url: string };
    const path = new URL(url).pathname;
    for (let i = 0; i < FAILED_KEY_ATTEMPTS.points + 5; i++) {
      const res = await server.request(path, { headers: from(player) });
      expect(res.status).toBe(404);
      await res.arrayBuffer();
    }
    // A wrong key from that address is still looked up (401), not refused as one guess too many.
    const wrong = await server.request("/api/search", { headers: { ...from(player), "x-api-key": `sk_${"w".repeat(40)}` } });
    expect(wrong.status).toBe(401);
    // The key holder opens the file from there.
    expect((await server.request(path, { headers: { ...from(player), "x-api-key": game.key } })).status).toBe(200);
  });
});
