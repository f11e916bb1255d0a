import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { createApiKey, regenerateApiKey, revokeApiKey, listApiKeys, deleteApiKey } from "../../app/services/api-keys/keys.server.ts";
import { sha256Hex } from "../../app/services/platform/ids.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { form, png } from "../helpers/upload-fixtures.ts";
import { expectApiResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let account: SeededAccount;

test.beforeAll(async ({ server: started }) => {
  server = started;
  account = await seedAccount(server.ctx);
});

async function search(init: RequestInit = {}, query = "") {
  const res = await server.request(`/api/search${query}`, init);
  const body = await expectApiResponse(res, "get", "/api/search");
  return { res, body };
}

describe("API keys", () => {
  it("are sk_ plus 40 base62 characters, stored only as a SHA-256 hash with a display prefix", async () => {
    const { key, secret } = await createApiKey(server.ctx.db, { serverId: account.serverId, teamId: account.teamId, name: "  MDT  " });
    expect(secret).toMatch(/^sk_[0-9A-Za-z]{40}$/);
    expect(key.permissions).toEqual(["upload", "read"]);
    expect(key.status).toBe("active");
    expect(key.name).toBe("MDT");
    expect(key.key_prefix).toBe(secret.slice(0, 11));
    const row = await server.ctx.db.selectFrom("api_keys").selectAll().where("id", "=", key.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256Hex(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(await listApiKeys(server.ctx.db, account.teamId))).not.toContain("key_hash");
  });

  it("rejects unknown permissions", async () => {
    await expect(
      createApiKey(server.ctx.db, { serverId: account.serverId, teamId: account.teamId, name: "x", permissions: ["upload", "admin"] }),
    ).rejects.toThrow(/Unknown permission "admin"/);
  });

  it("is accepted from every place clients put it, trimmed", async () => {
    const k = account.key;
    const variants: [RequestInit, string][] = [
      [{ headers: { "x-api-key": k } }, ""],
      [{ headers: { "x-api-key": `  ${k}  ` } }, ""],
      [{ headers: { Authorization: `Bearer ${k}` } }, ""],
      [{ headers: { Authorization: k } }, ""],
      [{ headers: { Authorization: `Key ${k}` } }, ""],
      [{}, `?apiKey=${k}`],
      [{}, `?api_key=%20${k}%20`],
    ];
    for (const [init, query] of variants) {
      const { res, body } = await search(init, query);
      expect(res.status, JSON.stringify({ init, query })).toBe(200);
      expect(body).toMatchObject({ success: true, files: [], total: 0 });
    }
  });

  it("answers 401 for a missing, malformed, unknown, revoked or expired key", async () => {
    const missing = await search();
    expect(missing.res.status).toBe(401);
    expect(missing.body).toMatchObject({ success: false, status: "error", code: "missing_api_key", error: "API key required" });

    for (const bad of ["not-a-key", "sk_short", `sk_${"A".repeat(40)}`]) {
      const { res, body } = await search({ headers: { "x-api-key": bad } });
      expect(res.status).toBe(401);
      expect(body).toMatchObject({ code: "invalid_api_key", error: "Invalid API key", message: "Invalid API key" });
    }

    const revoked = await createApiKey(server.ctx.db, { serverId: account.serverId, teamId: account.teamId, name: "old" });
    await revokeApiKey(server.ctx.db, account.teamId, revoked.key.id);
    expect((await search({ headers: { "x-api-key": revoked.secret } })).res.status).toBe(401);

    const expired = await createApiKey(server.ctx.db, {
      serverId: account.serverId,
      teamId: account.teamId,
      name: "temp",
      expiresAt: new Date(Date.now() - 1000),
    });
    const { res, body } = await search({ headers: { "x-api-key": expired.secret } });
    expect(res.status).toBe(401);
    expect(body).toMatchObject({ code: "api_key_expired", error: "API key expired" });
  });

  it("regenerating invalidates the old secret at once; deleting removes the key", async () => {
    const { key, secret } = await createApiKey(server.ctx.db, { serverId: account.serverId, teamId: account.teamId, name: "phone" });
    expect((await search({ headers: { "x-api-key": secret } })).res.status).toBe(200);
    const regenerated = await regenerateApiKey(server.ctx.db, account.teamId, key.id);
    expect(regenerated?.secret).not.toBe(secret);
    expect((await search({ headers: { "x-api-key": secret } })).res.status).toBe(401);
    expect((await search({ headers: { "x-api-key": regenerated!.secret } })).res.status).toBe(200);
    expect(await deleteApiKey(server.ctx.db, account.teamId, key.id)).toBe(true);
    expect((await search({ headers: { "x-api-key": regenerated!.secret } })).res.status).toBe(401);
  });

  it("answers 403 when a server_id of another server is sent or a permission is missing", async () => {
    const mismatch = await search({ headers: { "x-api-key": account.key } }, "?server_id=someoneelse1");
    expect(mismatch.res.status).toBe(403);
    expect(mismatch.body.code).toBe("server_mismatch");
    const own = await search({ headers: { "x-api-key": account.key } }, `?server_id=${account.serverId}`);
    expect(own.res.status).toBe(200);

    const uploadOnly = await createApiKey(server.ctx.db, { serverId: account.serverId, teamId: account.teamId, name: "u", permissions: ["upload"] });
    const denied = await search({ headers: { "x-api-key": uploadOnly.secret } });
    expect(denied.res.status).toBe(403);
    expect(denied.body).toMatchObject({ code: "permission_denied", error: "This API key does not have read permission" });
  });

  it("records an audit row, the day's API calls and the key's last use", async () => {
    const fresh = await seedAccount(server.ctx);
    await search({ headers: { "x-api-key": fresh.key } });
    await search({ headers: { "x-api-key": fresh.key } });
    // Call records are gathered in memory and written once a second (and at shutdown); write them now.
    await server.flushUsage();
    const audit = await server.ctx.db.selectFrom("audit_logs").selectAll().where("api_key_id", "=", fresh.keyId).execute();
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ action: "file.search", server_id: fresh.serverId, team_id: fresh.teamId });
    expect(audit[0].detail).toMatchObject({ status: 200, method: "GET", path: "/api/search" });
    const usage = await server.ctx.db.selectFrom("usage_daily").selectAll().where("server_id", "=", fresh.serverId).executeTakeFirstOrThrow();
    expect(usage.api_calls).toBe(2);
    const key = await server.ctx.db.selectFrom("api_keys").select("last_used_at").where("id", "=", fresh.keyId).executeTakeFirstOrThrow();
    expect(key.last_used_at).toBeInstanceOf(Date);
  });

  it("sends RateLimit headers on keyed answers", async () => {
    const { res } = await search({ headers: { "x-api-key": account.key } });
    expect(res.headers.get("ratelimit-limit")).toBe("120");
    expect(Number(res.headers.get("ratelimit-remaining"))).toBeLessThan(120);
  });
});

describe("CORS", () => {
  it("answers a preflight from a game UI origin with the headers it asks for", async () => {
    const res = await server.request("/api/upload", {
      method: "OPTIONS",
      headers: {
        Origin: "https://cfx-nui-lb-phone",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, x-api-key, content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toBe("authorization, x-api-key, content-type");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("answers uploads from a game UI with CORS once, the caller's request id, a metrics count and the same errors", async () => {
    // The upload routes skip Express and React Router (decision 077); what the host adds must still be there.
    const headers = { Origin: "https://cfx-nui-lb-phone", "x-api-key": account.key, "X-Request-Id": "trace-upload" };
    const res = await server.request("/api/upload", { method: "POST", headers, body: form([{ field: "file", data: await png(), filename: "shot.png" }]) });
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("x-request-id")).toBe("trace-upload");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("ratelimit-limit")).toBeTruthy();
    expect(await res.json()).toMatchObject({ success: true, url: expect.stringMatching(/\/f\//) });

    const refused = await server.request("/api/upload", { method: "POST", headers: { ...headers, "x-api-key": "sk_wrong" }, body: form([{ field: "file", data: await png(), filename: "shot.png" }]) });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(await refused.json()).toMatchObject({ success: false, code: "invalid_api_key" });
    // Other methods still reach the route through React Router.
    const get = await server.request("/api/upload", { headers: { Origin: "https://cfx-nui-lb-phone" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("access-control-allow-origin")).toBe("*");
    expect(await get.json()).toMatchObject({ success: false, code: "method_not_allowed" });

    const metrics = await (await server.request("/metrics")).text();
    expect(metrics).toMatch(/stash_http_requests_total\{method="POST",route="\/api\/upload",status="201"\} [1-9]/);
  });

  it("allows any origin on API answers, errors included, exactly once", async () => {
    const res = await server.request("/api/nope", { headers: { Origin: "https://cfx-nui-npwd" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.json()).toMatchObject({ success: false, status: "error", code: "not_found" });
    const health = await server.request("/api/health");
    expect(health.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("failed key attempts", () => {
  it("are limited per IP with 429, Retry-After and RateLimit headers", async () => {
    const isolated = await startTestServer();
    try {
      let last: Response | undefined;
      for (let i = 0; i < 21; i++) last = await isolated.request("/api/search", { headers: { "x-api-key": "sk_wrong" } });
      expect(last!.status).toBe(429);
      const body = await last!.json();
      expect(body).toMatchObject({ success: false, code: "rate_limited" });
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(last!.headers.get("ratelimit-limit")).toBe("20");
      expect(last!.headers.get("ratelimit-remaining")).toBe("0");
    } finally {
      await isolated.close();
    }
  });
});
