import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { getAccountQuota, reserveQuota } from "../../app/services/billing/quota.server.ts";
import { formatDate } from "../../app/lib/format.ts";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { form, png } from "../helpers/upload-fixtures.ts";
import { getDashboardStats } from "../../app/services/stats/dashboard-stats.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { postForm, readToast, signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import type { TestServer } from "../helpers/server.ts";
import type { ServerId, TeamId } from "../../app/lib/ids.ts";

let server: TestServer;
let owner: SignedInUser;

test.beforeAll(async ({ server: started }) => {
  server = started;
  owner = await signUpAndSignIn(server, { displayName: "Route Owner" });
});
const serverFields = (overrides: Record<string, string> = {}) => ({
  name: "Route Test",
  description: "",
  endpointUrl: "",
  maxFileSizeMb: "50",
  allowedFileTypes: "png",
  ...overrides,
});

async function serverCount(teamId: TeamId) {
  const rows = await server.ctx.db.selectFrom("servers").select("id").where("team_id", "=", teamId).execute();
  return rows.length;
}

async function seedFile(teamId: TeamId, serverId: ServerId, bytes: number) {
  const key = `${serverId}/other/${Math.random().toString(36).slice(2)}.png`;
  await server.ctx.blobs.put(key, Readable.from([Buffer.alloc(bytes, 7)]));
  await reserveQuota(server.ctx.db, teamId, bytes);
  await server.ctx.db
    .insertInto("files")
    .values({
      server_id: serverId,
      team_id: teamId,
      storage_key: key,
      filename: key.split("/").pop()!,
      original_filename: "a.png",
      category: "other",
      mime_type: "image/png",
      size_bytes: bytes,
      sha256: "0".repeat(64),
      is_public: true,
    })
    .execute();
  return key;
}

describe("guards", () => {
  it("sends visitors to /auth from every portal page and refuses their posts", async () => {
    for (const path of ["/dashboard", "/servers", "/servers/abc", "/api-keys", "/analytics", "/api-keys/sharex.sxcu"]) {
      const res = await server.request(path, { redirect: "manual" });
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location"), path).toMatch(/^\/auth/);
    }
    const res = await postForm(server, "/dashboard/connection-test", { check: "Servers" });
    expect(res.status).toBe(302);
  });

  it("refuses a cross-site post and creates nothing", async () => {
    const before = await serverCount(owner.teamId);
    const res = await postForm(server, "/servers", serverFields(), { cookie: owner.cookie, headers: { Origin: "https://evil.example" } });
    // Refused before the action runs: by the host's origin guard (403) or React Router's own check (400).
    expect([400, 403]).toContain(res.status);
    expect(await serverCount(owner.teamId)).toBe(before);
  });
});

describe("/servers create", () => {
  it.each([
    [{ name: "bad/name" }, "Server name can only contain letters, numbers, spaces, hyphens, and underscores"],
    [{ name: "" }, "Server name is required"],
    [{ name: "<b></b>" }, "Server name is required"],
    [{ endpointUrl: "nope" }, "Please enter a valid URL"],
    [{ maxFileSizeMb: "0" }, "Please enter a valid file size (1-10000 MB)"],
    [{ maxFileSizeMb: "10001" }, "Please enter a valid file size (1-10000 MB)"],
  ])("rejects %j with the spec's message", async (overrides, message) => {
    const before = await serverCount(owner.teamId);
    const res = await postForm(server, "/servers", serverFields(overrides), { cookie: owner.cookie });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
    expect(await serverCount(owner.teamId)).toBe(before);
  });

  it("applies the storage-quota rule", async () => {
    const full = await signUpAndSignIn(server);
    await reserveQuota(server.ctx.db, full.teamId, 5 * 1024 ** 3 - 10 * 1024 ** 2);
    const res = await postForm(server, "/servers", serverFields(), { cookie: full.cookie });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("Creating this server would exceed your storage quota of 5GB. Current usage: 4.99GB");
    expect(await serverCount(full.teamId)).toBe(0);
  });

  it("offers the Upload shortcut only for active servers", async () => {
    const user = await signUpAndSignIn(server);
    const active = await createServer(server.ctx.db, { teamId: user.teamId, name: "Live" });
    const paused = await createServer(server.ctx.db, { teamId: user.teamId, name: "Paused" });
    await server.ctx.db.updateTable("servers").set({ status: "maintenance" }).where("id", "=", paused.id).execute();
    const html = await (await server.request("/servers", { headers: { Cookie: user.cookie } })).text();
    expect(html).toContain(`href="/upload?server=${active.id}"`);
    expect(html).not.toContain(`href="/upload?server=${paused.id}"`);
    expect(html).toContain(`href="/servers/${paused.id}"`);
  });

  it("creates a server and lists it", async () => {
    const res = await postForm(server, "/servers", serverFields({ name: "Created Over HTTP" }), { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const list = await server.request("/servers", { headers: { Cookie: owner.cookie } });
    expect(await list.text()).toContain("Created Over HTTP");
  });
});

describe("/servers/:id", () => {
  it("shows Server Not Found for another owner's server and changes nothing on post", async () => {
    const other = await signUpAndSignIn(server);
    const theirs = await createServer(server.ctx.db, { teamId: other.teamId, name: "Theirs" });
    const page = await server.request(`/servers/${theirs.id}`, { headers: { Cookie: owner.cookie } });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Server Not Found");
    const res = await postForm(server, `/servers/${theirs.id}`, { intent: "delete", confirm: "yes" }, { cookie: owner.cookie });
    expect(res.status).toBe(404);
    expect(await serverCount(other.teamId)).toBe(1);
  });

  it("validates updates and retention rules, then saves them", async () => {
    const mine = await createServer(server.ctx.db, { teamId: owner.teamId, name: "Editable" });
    const path = `/servers/${mine.id}`;
    const bad = await postForm(server, path, { intent: "update", ...serverFields({ maxFileSizeMb: "abc" }) }, { cookie: owner.cookie });
    expect(bad.status).toBe(400);
    const badRule = await postForm(server, path, { intent: "retention-save", category: "security_camera", days: "0" }, { cookie: owner.cookie });
    expect(badRule.status).toBe(400);
    const badCategory = await postForm(server, path, { intent: "retention-save", category: "no spaces!", days: "3" }, { cookie: owner.cookie });
    expect(badCategory.status).toBe(400);

    const ok = await postForm(server, path, { intent: "update", ...serverFields({ name: "Edited", maxFileSizeMb: "" }) }, { cookie: owner.cookie });
    expect(ok.status).toBe(200);
    await postForm(server, path, { intent: "retention-save", category: "security_camera", days: "30" }, { cookie: owner.cookie });
    await postForm(server, path, { intent: "visibility", defaultPublic: "private" }, { cookie: owner.cookie });
    await postForm(server, path, { intent: "webhook-rotate" }, { cookie: owner.cookie });
    const row = await server.ctx.db.selectFrom("servers").selectAll().where("id", "=", mine.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: "Edited", max_file_size_mb: 50, default_public: false });
    expect(row.webhook_secret).not.toBe(mine.webhook_secret);
    const rules = await server.ctx.db.selectFrom("retention_rules").selectAll().where("server_id", "=", mine.id).execute();
    expect(rules).toEqual([{ server_id: mine.id, category: "security_camera", days: 30 }]);
    const page = await (await server.request(path, { headers: { Cookie: owner.cookie } })).text();
    expect(page).toContain(`/api/webhooks/${mine.id}/${row.webhook_secret}`);
  });

  it("deletes only with the confirmation, removing files and releasing storage", async () => {
    const mine = await createServer(server.ctx.db, { teamId: owner.teamId, name: "Doomed" });
    const key = await seedFile(owner.teamId, mine.id, 4096);
    const usedBefore = (await getAccountQuota(server.ctx.db, owner.teamId)).usedBytes;
    const unconfirmed = await postForm(server, `/servers/${mine.id}`, { intent: "delete" }, { cookie: owner.cookie });
    expect(unconfirmed.status).toBe(400);
    const res = await postForm(server, `/servers/${mine.id}`, { intent: "delete", confirm: "yes" }, { cookie: owner.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/servers");
    expect(await server.ctx.blobs.head(key)).toBeNull();
    expect((await getAccountQuota(server.ctx.db, owner.teamId)).usedBytes).toBe(usedBefore - 4096);
  });
});

describe("/api-keys", () => {
  it("validates, creates, regenerates and deletes keys", async () => {
    const user = await signUpAndSignIn(server);
    const mine = await createServer(server.ctx.db, { teamId: user.teamId, name: "Keyed" });
    const theirs = await createServer(server.ctx.db, { teamId: owner.teamId, name: "Not yours" });
    const missing = await postForm(server, "/api-keys", { intent: "create", name: "  ", serverId: mine.id }, { cookie: user.cookie });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Please provide a name and select a server.");
    const foreign = await postForm(server, "/api-keys", { intent: "create", name: "x", serverId: theirs.id, permissions: "upload" }, { cookie: user.cookie });
    expect(foreign.status).toBe(404);

    const created = await postForm(server, "/api-keys", { intent: "create", name: "Phone", serverId: mine.id, permissions: ["upload", "read"] }, { cookie: user.cookie });
    expect(created.status).toBe(200);
    expect(await created.text()).toMatch(/sk_[0-9A-Za-z]{40}/);
    const [key] = await server.ctx.db.selectFrom("api_keys").selectAll().where("team_id", "=", user.teamId).execute();
    expect(key).toMatchObject({ name: "Phone", server_id: mine.id, permissions: ["upload", "read"] });

    const page = await (await server.request(`/api-keys?server=${mine.id}`, { headers: { Cookie: user.cookie } })).text();
    expect(page).toContain(key!.key_prefix);
    expect(page).toContain(server.url);
    expect(page).toContain(">Active<");
    // Expired wins over the stored status.
    await server.ctx.db.updateTable("api_keys").set({ expires_at: new Date(Date.now() - 1000) }).where("id", "=", key!.id).execute();
    const expired = await (await server.request("/api-keys", { headers: { Cookie: user.cookie } })).text();
    expect(expired).toContain(">Expired<");
    expect(expired).not.toContain(">Active<");

    expect((await postForm(server, "/api-keys", { intent: "regenerate", keyId: "00000000-0000-0000-0000-000000000000" }, { cookie: user.cookie })).status).toBe(404);
    expect((await postForm(server, "/api-keys", { intent: "regenerate", keyId: "not-a-uuid" }, { cookie: user.cookie })).status).toBe(404);
    expect((await postForm(server, "/api-keys", { intent: "delete", keyId: key!.id }, { cookie: owner.cookie })).status).toBe(404);
    const regenerated = await postForm(server, "/api-keys", { intent: "regenerate", keyId: key!.id }, { cookie: user.cookie });
    expect(regenerated.status).toBe(200);
    const after = await server.ctx.db.selectFrom("api_keys").select("key_hash").where("id", "=", key!.id).executeTakeFirstOrThrow();
    expect(after.key_hash).not.toBe(key!.key_hash);
    expect((await postForm(server, "/api-keys", { intent: "delete", keyId: key!.id }, { cookie: user.cookie })).status).toBe(200);
    expect(await server.ctx.db.selectFrom("api_keys").select("id").where("team_id", "=", user.teamId).execute()).toEqual([]);
  });

  it("creates a key with the permissions and expiry its owner chose, which the API enforces, and counts its calls", async () => {
    const user = await signUpAndSignIn(server);
    const mine = await createServer(server.ctx.db, { teamId: user.teamId, name: "Scoped" });
    const keys = () => server.ctx.db.selectFrom("api_keys").selectAll().where("team_id", "=", user.teamId).execute();
    const create = (fields: Record<string, string | string[]>) =>
      postForm(server, "/api-keys", { intent: "create", name: "Bodycam", serverId: mine.id, ...fields }, { cookie: user.cookie });

    const refusals: [Record<string, string | string[]>, string][] = [
      [{ expiresIn: "never" }, "Choose at least one permission."],
      [{ permissions: ["upload", "admin"] }, 'Unknown permission "admin" (use upload, read, delete, logs:write)'],
      [{ permissions: ["upload"], expiresIn: "7" }, "Choose when the key expires."],
    ];
    for (const [fields, message] of refusals) {
      const res = await create(fields);
      expect(res.status).toBe(400);
      expect(readToast(res)).toEqual({ type: "error", title: "Error creating API key", description: message });
    }
    expect(await keys()).toEqual([]);

    const res = await create({ permissions: ["upload"], expiresIn: "30" });
    expect(res.status).toBe(200);
    const secret = (await res.text()).match(/sk_[0-9A-Za-z]{40}/)![0];
    const [key] = await keys();
    expect(key!.permissions).toEqual(["upload"]);
    expect(key!.name).toBe("Bodycam");
    const days = (new Date(key!.expires_at!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const uploaded = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": secret }, body: form([{ field: "file", data: await png(), filename: "cam.png" }]) });
    expect(uploaded.status).toBe(201);
    // Without read the file's record is hidden, as for a key of another server; a read key sees it.
    const fileId = (await uploaded.json()).id;
    const read = await server.request(`/api/files/${fileId}`, { headers: { "x-api-key": secret } });
    expect(read.status).toBe(404);
    expect(await read.json()).toMatchObject({ code: "not_found" });
    const reader = await createApiKey(server.ctx.db, { serverId: mine.id, teamId: user.teamId, name: "Reader", permissions: ["read"] });
    expect((await server.request(`/api/files/${fileId}`, { headers: { "x-api-key": reader.secret } })).status).toBe(200);

    await server.flushUsage();
    const page = await (await server.request("/api-keys", { headers: { Cookie: user.cookie } })).text();
    expect(page).toContain(">Can upload<");
    expect(page).toContain(`Expires ${formatDate(key!.expires_at)}`);
    // The upload was Bodycam's one key-authenticated call (metadata reads are not counted as calls).
    expect(page).toMatch(/>Bodycam<[\s\S]*?data-testid="api-key-calls">1 call in 30 days</);
  });

  it("offers a ShareX uploader for this instance", async () => {
    const res = await server.request("/api-keys/sharex.sxcu", { headers: { Cookie: owner.cookie } });
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename=".+\.sxcu"/);
    expect(await res.json()).toMatchObject({ RequestURL: `${server.url}/api/upload`, FileFormName: "file", URL: "{json:url}" });
  });
});

describe("dashboard connection test", () => {
  it("runs checks, and the key test creates and deletes a temporary key", async () => {
    const user = await signUpAndSignIn(server);
    const check = async (name: string) => (await postForm(server, "/dashboard/connection-test", { check: name }, { cookie: user.cookie })).json();
    expect(await check("API Key Creation Test")).toMatchObject({ ok: false, message: "No servers found - cannot test API key creation" });
    await createServer(server.ctx.db, { teamId: user.teamId, name: "Tested" });
    expect(await check("Servers")).toMatchObject({ ok: true, details: { count: 1 } });
    expect(await check("User Profile")).toMatchObject({ ok: true, details: { role: "user" } });
    expect(await check("API Key Creation Test")).toMatchObject({ ok: true, details: { deleted: true } });
    expect(await server.ctx.db.selectFrom("api_keys").select("id").where("team_id", "=", user.teamId).execute()).toEqual([]);
    const unknown = await postForm(server, "/dashboard/connection-test", { check: "Nope" }, { cookie: user.cookie });
    expect(unknown.status).toBe(400);
  });
});

describe("analytics and admin", () => {
  it("shows the empty analytics state for a new account and accepts only known ranges", async () => {
    const user = await signUpAndSignIn(server);
    const html = await (await server.request("/analytics?range=999", { headers: { Cookie: user.cookie } })).text();
    expect(html).toContain("No Analytics Data Yet");
    expect(html).toContain('aria-current="page"');
  });

  it("sends a non-admin from /admin to / and refuses their delete", async () => {
    const target = await createServer(server.ctx.db, { teamId: owner.teamId, name: "Protected" });
    for (const path of ["/admin", "/admin/servers"]) {
      const res = await server.request(path, { headers: { Cookie: owner.cookie }, redirect: "manual" });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/");
    }
    const res = await postForm(server, "/admin/servers", { intent: "delete", serverId: target.id }, { cookie: owner.cookie });
    expect(res.status).toBe(302);
    expect(await server.ctx.db.selectFrom("servers").select("id").where("id", "=", target.id).executeTakeFirst()).toBeDefined();
  });

  it("lets an admin see totals and health and delete any server, releasing its storage", async () => {
    const admin = await signUpAndSignIn(server, { role: "admin" });
    const target = await createServer(server.ctx.db, { teamId: owner.teamId, name: "Admin Target" });
    const key = await seedFile(owner.teamId, target.id, 2048);
    const usedBefore = (await getAccountQuota(server.ctx.db, owner.teamId)).usedBytes;
    const dash = await server.request("/admin", { headers: { Cookie: admin.cookie } });
    expect(dash.status).toBe(200);
    const html = await dash.text();
    expect(html).toContain("System Health");
    expect(html).toContain("Admin Target");
    const list = await (await server.request("/admin/servers", { headers: { Cookie: admin.cookie } })).text();
    expect(list).toContain("Admin Target");
    // View Details opens the admin's read-only copy of the owner's server page.
    expect(list).toContain(`href="/admin/servers/${target.id}"`);
    const detail = await server.request(`/admin/servers/${target.id}`, { headers: { Cookie: admin.cookie } });
    expect(detail.status).toBe(200);
    expect(await detail.text()).toContain("Admin Target");
    const bad = await postForm(server, "/admin/servers", { intent: "delete", serverId: "missing" }, { cookie: admin.cookie });
    expect(bad.status).toBe(404);
    const res = await postForm(server, "/admin/servers", { intent: "delete", serverId: target.id }, { cookie: admin.cookie });
    expect(res.status).toBe(200);
    expect(await server.ctx.blobs.head(key)).toBeNull();
    expect((await getAccountQuota(server.ctx.db, owner.teamId)).usedBytes).toBe(usedBefore - 2048);
  });
});

describe("integration guide against the live script API", () => {
  it("the guide's upload, base64 and search calls work as written, and the dashboard counts them", async () => {
    const user = await signUpAndSignIn(server);
    const target = await createServer(server.ctx.db, { teamId: user.teamId, name: "Guide" });
    const { secret } = await createApiKey(server.ctx.db, { serverId: target.id, teamId: user.teamId, name: "guide" });
    // A 1x1 PNG.
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

    const form = new FormData();
    form.append("file", new Blob([png], { type: "image/png" }), "screenshot.png");
    form.append("category", "phone_camera");
    form.append("player_name", "John Doe");
    form.append("is_public", "true");
    form.append("metadata", JSON.stringify({ location: "Legion Square" }));
    const upload = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": secret }, body: form });
    expect(upload.status).toBe(201);
    expect((await upload.json()).url).toMatch(/^http/);

    const base64 = await server.request("/api/upload/base64", {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-api-key": secret },
      body: JSON.stringify({ file: `data:image/png;base64,${png.toString("base64")}`, category: "screenshot", player_name: "Niko" }),
    });
    expect(base64.status).toBe(201);
    expect((await base64.json()).success).toBe(true);

    const search = await server.request("/api/search?category=phone_camera&player_name=John&page=1&limit=20", {
      headers: { Authorization: `Bearer ${secret}` },
    });
    expect(search.status).toBe(200);
    const found = await search.json();
    expect(found.files).toHaveLength(1);
    expect(found.files[0].url).toMatch(/^http/);

    // Call counters are written once a second; flushUsage writes them now.
    await server.flushUsage();
    const stats = await getDashboardStats(server.ctx.db, user.teamId);
    expect(stats).toMatchObject({ totalServers: 1, mediaFiles: 2 });
    expect(stats.apiCalls30d).toBeGreaterThanOrEqual(3);
  });
});

describe("public pages for a signed-in visitor", () => {
  it("offer the Dashboard instead of Sign In, and tell shared caches to keep out", async () => {
    const header = (html: string) => html.slice(html.indexOf("<header"), html.indexOf("</header>"));
    const visitor = await server.request("/pricing");
    const visitorHeader = header(await visitor.text());
    expect(visitorHeader).toContain("Get Started");
    expect(visitorHeader).not.toContain('href="/dashboard"');
    expect(visitor.headers.get("cache-control") ?? "").not.toContain("private");

    const member = await server.request("/pricing", { headers: { Cookie: owner.cookie } });
    const memberHeader = header(await member.text());
    expect(memberHeader).toMatch(/href="\/dashboard"[^>]*>Dashboard</);
    expect(memberHeader).not.toContain("Get Started");
    expect(memberHeader).not.toContain(">Sign In<");
    expect(member.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("an admin opening another owner's server", () => {
  it("sees whose it is, read-only and without its webhook secret, and cannot change it there", async () => {
    const admin = await signUpAndSignIn(server, { role: "admin" });
    const theirs = await createServer(server.ctx.db, { teamId: owner.teamId, name: "Owned Elsewhere" });
    // The owner's address sends an admin to the admin copy, under the admin sidebar with All Servers current.
    const moved = await server.request(`/servers/${theirs.id}`, { headers: { Cookie: admin.cookie }, redirect: "manual" });
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe(`/admin/servers/${theirs.id}`);
    const res = await server.request(`/admin/servers/${theirs.id}`, { headers: { Cookie: admin.cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<a[^>]*aria-current="page"[^>]*href="\/admin\/servers"|<a[^>]*href="\/admin\/servers"[^>]*aria-current="page"/);
    expect(html).not.toMatch(/<a[^>]*aria-current="page"[^>]*href="\/servers"|<a[^>]*href="\/servers"[^>]*aria-current="page"/);
    expect(html).toContain("Admin view of Route Owner");
    expect(html).toContain(owner.email);
    expect(html).not.toContain("Edit Settings");
    expect(html).not.toContain(theirs.webhook_secret);

    const edit = await postForm(server, `/admin/servers/${theirs.id}`, { intent: "update", ...serverFields({ name: "Renamed By Admin" }) }, { cookie: admin.cookie });
    expect(edit.status).toBe(403);
    expect(readToast(edit)).toMatchObject({ type: "error" });
    const row = await server.ctx.db.selectFrom("servers").select("name").where("id", "=", theirs.id).executeTakeFirstOrThrow();
    expect(row.name).toBe("Owned Elsewhere");

    const own = await (await server.request(`/servers/${theirs.id}`, { headers: { Cookie: owner.cookie } })).text();
    expect(own).toContain("Edit Settings");
    expect(own).not.toContain("Admin view of");
    const member = await signUpAndSignIn(server);
    expect((await server.request(`/admin/servers/${theirs.id}`, { headers: { Cookie: member.cookie }, redirect: "manual" })).status).not.toBe(200);
  });
});
