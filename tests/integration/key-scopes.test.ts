import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { createUser } from "../../app/services/accounts/users.server.ts";
import { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import type { KeyScopes } from "../../app/services/api-keys/key-scopes.server.ts";
import { createSessionCookie } from "../helpers/auth.ts";
import { form, png } from "../helpers/upload-fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import type { ServerId, TeamId } from "../../app/lib/ids.ts";
import { findPersonalTeam } from "../../app/services/teams/teams.server.ts";

/** An owner with a server made with the portal's defaults and one key limited by `scopes`. */
async function scopedKey(server: TestServer, scopes: Partial<KeyScopes>) {
  const user = await createUser(server.ctx.db, { email: `scopes-${randomBytes(4).toString("hex")}@example.com`, password: "correct horse battery", verified: true });
  const teamId = (await findPersonalTeam(server.ctx.db, user.id))!;
  const srv = await createServer(server.ctx.db, { teamId, name: "Scoped RP" });
  const { key, secret } = await createApiKey(server.ctx.db, { serverId: srv.id, teamId, name: "phone", permissions: ["upload", "read"], scopes });
  return { userId: user.id, teamId, serverId: srv.id, keyId: key.id, secret };
}

async function upload(server: TestServer, secret: string, parts: Parameters<typeof form>[0]) {
  const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": secret }, body: form(parts) });
  return { status: res.status, body: await res.json() };
}

/** What a refused upload must leave unchanged: rows, blobs under the server's folder, quota. */
async function footprint(server: TestServer, owner: { teamId: TeamId; serverId: ServerId }) {
  const rows = await server.ctx.db.selectFrom("files").select("id").where("server_id", "=", owner.serverId).execute();
  const dir = path.join(server.dataDir, "files", owner.serverId);
  const blobs = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((entry) => fs.statSync(path.join(dir, String(entry))).isFile()).length : 0;
  return { rows: rows.length, blobs, used: (await getAccountQuota(server.ctx.db, owner.teamId)).usedBytes };
}

describe("scoped keys", () => {
  test("a key limited to phone_* uploads phone categories and is refused police_evidence, leaving nothing behind", async ({ server }) => {
    const owner = await scopedKey(server, { categories: ["phone_*"] });
    const image = await png(40, 30);
    const ok = await upload(server, owner.secret, [{ field: "category", data: "phone_photos" }, { field: "file", data: image, filename: "selfie.png", type: "image/png" }]);
    expect(ok.status).toBe(201);
    expect(ok.body.url).toContain("/phone_photos/");
    const before = await footprint(server, owner);

    // Named before the file: refused before a byte is stored.
    const early = await upload(server, owner.secret, [{ field: "category", data: "police_evidence" }, { field: "file", data: image, filename: "mugshot.png", type: "image/png" }]);
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({ success: false, code: "permission_denied", message: "This API key may not upload to category police_evidence", scope: "categories", allowed: ["phone_*"] });
    // Named after the file (the category is only final at the end of the body): refused at commit, the stored bytes deleted.
    const late = await upload(server, owner.secret, [{ field: "file", data: image, filename: "mugshot.png", type: "image/png" }, { field: "category", data: "police_evidence" }]);
    expect(late.status).toBe(403);
    expect(late.body.code).toBe("permission_denied");
    // No category means "other", outside phone_*.
    expect((await upload(server, owner.secret, [{ field: "file", data: image, filename: "x.png", type: "image/png" }])).status).toBe(403);
    expect(await footprint(server, owner)).toEqual(before);

    // A presigned URL is a promise of a category: asked for outside the scope, none is made.
    const presign = await server.request("/api/upload/presign?category=police_evidence", { headers: { "x-api-key": owner.secret } });
    expect(presign.status).toBe(403);
    expect((await server.ctx.db.selectFrom("upload_grants").select("id").where("server_id", "=", owner.serverId).execute()).length).toBe(0);
  });

  test("a key limited to an address range is refused from another address, recorded against the key", async ({ server }) => {
    const elsewhere = await scopedKey(server, { addresses: ["10.0.0.0/8", "2001:db8::/32"] });
    const image = await png(16, 16);
    const refused = await upload(server, elsewhere.secret, [{ field: "category", data: "screenshots" }, { field: "file", data: image, filename: "a.png", type: "image/png" }]);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "permission_denied", message: "This API key may not be used from this address", scope: "allowed_ips" });
    expect((await footprint(server, elsewhere)).rows).toBe(0);
    const search = await server.request("/api/search", { headers: { "x-api-key": elsewhere.secret } });
    expect(search.status).toBe(403);

    const here = await scopedKey(server, { addresses: ["127.0.0.1", "::1"] });
    expect((await upload(server, here.secret, [{ field: "category", data: "screenshots" }, { field: "file", data: image, filename: "b.png", type: "image/png" }])).status).toBe(201);

    await server.flushUsage();
    const audit = await server.ctx.db.selectFrom("audit_logs").select(["action", "api_key_id", "detail"]).where("api_key_id", "in", [elsewhere.keyId, here.keyId]).orderBy("id").execute();
    expect(audit.map((row) => [row.api_key_id, row.action, (row.detail as { status: number }).status])).toEqual([
      [elsewhere.keyId, "file.upload", 403],
      [elsewhere.keyId, "file.search", 403],
      [here.keyId, "file.upload", 201],
    ]);
  });

  test("a key's own size limit is below the server's", async ({ server }) => {
    const small = await scopedKey(server, { maxFileBytes: 2048 });
    const big = await png(200, 200);
    expect(big.length).toBeGreaterThan(2048);
    const refused = await upload(server, small.secret, [{ field: "category", data: "screenshots" }, { field: "file", data: big, filename: "big.png", type: "image/png" }]);
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ code: "file_too_large", max_size_mb: 2048 / (1024 * 1024) });
    expect(await footprint(server, small)).toMatchObject({ rows: 0, blobs: 0, used: 0 });
  });

  test("limits are set through the key API and the portal form, checked, and shown in the key list", async ({ server }) => {
    const user = await createUser(server.ctx.db, { email: `keys-${randomBytes(4).toString("hex")}@example.com`, password: "correct horse battery", verified: true });
    const teamId = (await findPersonalTeam(server.ctx.db, user.id))!;
    const srv = await createServer(server.ctx.db, { teamId, name: "Form RP" });
    const { cookie } = await createSessionCookie(server.ctx, user.id);
    const keyCount = async () => (await server.ctx.db.selectFrom("api_keys").select("id").where("team_id", "=", teamId).execute()).length;
    const headers = { Cookie: cookie, "Content-Type": "application/json", Origin: server.url };

    const bad = await server.request("/api/keys", { method: "POST", headers, body: JSON.stringify({ name: "cams", server_id: srv.id, allowed_ips: "10.0.0.0/33" }) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain('"10.0.0.0/33" is not an IP address or CIDR range');
    expect(await keyCount()).toBe(0);
    const made = await server.request("/api/keys", { method: "POST", headers, body: JSON.stringify({ name: "cams", server_id: srv.id, categories: ["security_camera", "bodycam"], max_file_mb: 25 }) });
    expect(made.status).toBe(201);
    expect((await made.json()).data).toMatchObject({ allowed_categories: ["security_camera", "bodycam"], max_file_bytes: 25 * 1024 * 1024, allowed_ips: null });

    const page = (fields: Record<string, string>) => {
      const body = new URLSearchParams({ intent: "create", name: "Phone", serverId: srv.id, expiresIn: "never", ...fields });
      body.append("permissions", "upload");
      return server.request("/api-keys", { method: "POST", headers: { Cookie: cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" }, body });
    };
    const refused = await page({ categories: "Phone Photos!" });
    expect(refused.status).toBe(400);
    expect(await keyCount()).toBe(1);
    expect((await page({ categories: "phone_*", allowedIps: "203.0.113.7", maxFileMb: "" })).status).toBe(200);
    const list = (await (await server.request("/api-keys", { headers: { Cookie: cookie } })).text()).replace(/<!-- -->/g, "");
    expect(list).toMatch(/data-testid="api-key-categories">Only phone_\*</);
    expect(list).toMatch(/data-testid="api-key-addresses">From 203\.0\.113\.7</);
    expect(list).toContain("Only security_camera, bodycam");
    expect(list).toContain("Files up to 25 MB");
  });
});
