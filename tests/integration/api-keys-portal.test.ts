import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, png } from "../helpers/upload-fixtures.ts";
import type { ServerId } from "../../app/lib/ids.ts";

let server: TestServer;
let owner: SignedInUser;
let serverId: ServerId;

function call(path: string, init: { method?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {}) {
  return server.request(path, {
    method: init.method ?? "GET",
    headers: {
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(init.cookie !== undefined ? { Cookie: init.cookie } : { Cookie: owner.cookie }),
      ...init.headers,
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
}

async function keyCount() {
  const row = await server.ctx.db.selectFrom("api_keys").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function upload(key: string) {
  return server.request("/api/upload", { method: "POST", headers: { "x-api-key": key }, body: form([{ field: "file", data: await png(), filename: "a.png" }]) });
}

test.beforeAll(async ({ server: started }) => {
  server = started;
  owner = await signUpAndSignIn(server);
  serverId = (await createServer(server.ctx.db, { teamId: owner.teamId, name: "Vinewood RP" })).id;
});

describe("/api/keys for the portal (session auth)", () => {
  it("answers Not authenticated without a session, for every method", async () => {
    for (const [path, method] of [["/api/keys", "GET"], ["/api/keys", "POST"], ["/api/keys/00000000-0000-4000-8000-000000000000", "PUT"], ["/api/keys/00000000-0000-4000-8000-000000000000", "DELETE"]]) {
      const res = await call(path, { method, cookie: "", body: method === "GET" ? undefined : {} });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ success: false, error: "Not authenticated", code: "not_authenticated" });
    }
  });

  it("creates a key that works at once, shows it once, and lists it with its server's name", async () => {
    const res = await call("/api/keys", { method: "POST", body: { name: "  phone script ", server_id: serverId } });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ success: true, data: { name: "phone script", server_id: serverId, permissions: ["upload", "read"], status: "active", servers: { name: "Vinewood RP" } } });
    expect(created.api_key).toMatch(/^sk_[0-9A-Za-z]{40}$/);
    expect(created.data.api_key).toBe(created.api_key);
    expect(created.data.key_hash).toBeUndefined();
    expect((await upload(created.api_key)).status).toBe(201);

    const list = await (await call("/api/keys")).json();
    expect(list.success).toBe(true);
    expect(list.data).toEqual([expect.objectContaining({ id: created.data.id, key_prefix: created.data.key_prefix, servers: { name: "Vinewood RP" } })]);
    expect(JSON.stringify(list)).not.toContain(created.api_key);
  });

  it("regenerates: the old secret stops working at once and the new one works", async () => {
    const created = await (await call("/api/keys", { method: "POST", body: { name: "mdt", server_id: serverId } })).json();
    const res = await call("/api/keys", { method: "POST", body: { key_id: created.data.id, operation: "regenerate" } });
    expect(res.status).toBe(200);
    const regenerated = await res.json();
    expect(regenerated.api_key).not.toBe(created.api_key);
    expect((await upload(created.api_key)).status).toBe(401);
    expect((await upload(regenerated.api_key)).status).toBe(201);
  });

  it("renames, revokes and deletes a key with PUT and DELETE", async () => {
    const created = await (await call("/api/keys", { method: "POST", body: { name: "cctv", server_id: serverId } })).json();
    const renamed = await call(`/api/keys/${created.data.id}`, { method: "PUT", body: { name: "cctv cams", permissions: ["read"] } });
    expect(await renamed.json()).toMatchObject({ success: true, data: { name: "cctv cams", permissions: ["read"] } });
    const revoked = await call(`/api/keys/${created.data.id}`, { method: "PUT", body: { status: "revoked" } });
    expect((await revoked.json()).data.status).toBe("revoked");
    expect((await upload(created.api_key)).status).toBe(401);
    const deleted = await call(`/api/keys/${created.data.id}`, { method: "DELETE" });
    expect(await deleted.json()).toEqual({ success: true, status: "ok", error: false, data: { id: created.data.id } });
    expect((await call(`/api/keys/${created.data.id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("refuses bad input with a clear error and creates nothing", async () => {
    const before = await keyCount();
    const cases: Array<[unknown, number, string | RegExp]> = [
      [{ name: "   ", server_id: serverId }, 400, "Missing information - Please provide a name and select a server."],
      [{ name: "x" }, 400, "Missing information - Please provide a name and select a server."],
      // A name that is only markup is cleaned to nothing, like every text input (spec customer-portal §5).
      [{ name: "<script>alert(1)</script><b></b>", server_id: serverId }, 400, "Missing information - Please provide a name and select a server."],
      [{ name: "x", server_id: serverId, permissions: ["admin"] }, 400, /Unknown permission "admin"/],
      [{ name: "x", server_id: "not-mine" }, 404, "Server not found"],
      [{ key_id: "nope", operation: "regenerate" }, 400, "key_id must be a key id"],
      [{ key_id: "00000000-0000-4000-8000-000000000000", operation: "explode" }, 400, 'operation must be "regenerate" or "delete"'],
    ];
    for (const [body, status, message] of cases) {
      const res = await call("/api/keys", { method: "POST", body });
      expect(res.status).toBe(status);
      expect((await res.json()).error).toMatch(message);
    }
    const notJson = await server.request("/api/keys", { method: "POST", headers: { Cookie: owner.cookie, "Content-Type": "application/json" }, body: "{oops" });
    expect(notJson.status).toBe(400);
    expect(await keyCount()).toBe(before);
  });

  it("cleans a key name of markup, as the display name and server name are", async () => {
    const res = await call("/api/keys", { method: "POST", body: { name: '<img src=x onerror="alert(1)">Body<i>cam</i>', server_id: serverId } });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created.data.name).toBe("Bodycam");
    const renamed = await call(`/api/keys/${created.data.id}`, { method: "PUT", body: { name: "<script>x</script>Dash cam" } });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).data.name).toBe("Dash cam");
  });

  it("keeps one user's keys away from another", async () => {
    const created = await (await call("/api/keys", { method: "POST", body: { name: "mine", server_id: serverId } })).json();
    const other = await signUpAndSignIn(server);
    expect((await (await call("/api/keys", { cookie: other.cookie })).json()).data).toEqual([]);
    expect((await call(`/api/keys/${created.data.id}`, { method: "DELETE", cookie: other.cookie })).status).toBe(404);
    expect((await call("/api/keys", { method: "POST", cookie: other.cookie, body: { key_id: created.data.id, operation: "regenerate" } })).status).toBe(404);
    expect((await call("/api/keys", { method: "POST", cookie: other.cookie, body: { name: "steal", server_id: serverId } })).status).toBe(404);
    expect((await upload(created.api_key)).status).toBe(201);
  });

  it("answers other methods with a JSON 405", async () => {
    for (const [path, method] of [["/api/keys/00000000-0000-4000-8000-000000000000", "GET"], ["/api/keys", "PATCH"]]) {
      const res = await call(path, { method });
      expect(res.status).toBe(405);
      expect(await res.json()).toMatchObject({ success: false, code: "method_not_allowed" });
    }
  });

  it("refuses state changes sent from another site", async () => {
    const before = await keyCount();
    const res = await call("/api/keys", { method: "POST", body: { name: "csrf", server_id: serverId }, headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" } });
    expect(res.status).toBe(403);
    expect(await keyCount()).toBe(before);
  });

  it("refuses a cross-site state change on every cookie endpoint under /api, through the one wrapper", async () => {
    const files = async () => Number((await server.ctx.db.selectFrom("files").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
    const [keysBefore, filesBefore] = [await keyCount(), await files()];
    const crossSite = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", Cookie: owner.cookie };
    const attempts: [string, RequestInit][] = [
      ["/api/keys", { method: "POST", headers: { ...crossSite, "Content-Type": "application/json" }, body: JSON.stringify({ name: "csrf", server_id: serverId }) }],
      ["/api/keys/00000000-0000-4000-8000-000000000000", { method: "DELETE", headers: crossSite }],
      [`/api/portal/upload?server_id=${serverId}`, { method: "POST", headers: crossSite, body: form([{ field: "file", data: await png(), filename: "a.png" }]) }],
      [`/api/portal/uploads/tus?server_id=${serverId}`, { method: "POST", headers: { ...crossSite, "Tus-Resumable": "1.0.0", "Upload-Length": "10", "Upload-Metadata": `filename ${Buffer.from("a.png").toString("base64")}` } }],
    ];
    for (const [path, init] of attempts) {
      const res = await server.request(path, init);
      expect(res.status, path).toBe(403);
      expect(await res.json(), path).toMatchObject({ success: false, code: "permission_denied", error: "This request came from another site and was refused." });
    }
    expect([await keyCount(), await files()]).toEqual([keysBefore, filesBefore]);
  });
});
