import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { GB } from "../../app/lib/plans.ts";
import { getAccountQuota, reserveQuota } from "../../app/services/billing/quota.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { postForm, signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, pdf, png } from "../helpers/upload-fixtures.ts";
import type { FileId, ServerId, TeamId } from "../../app/lib/ids.ts";

let server: TestServer;

test.beforeAll(async ({ server: started }) => {
  server = started;
});

interface Owner extends SignedInUser {
  serverId: ServerId;
}

async function owner(): Promise<Owner> {
  const signedIn = await signUpAndSignIn(server);
  const gameServer = await createServer(server.ctx.db, { teamId: signedIn.teamId, name: "Los Santos RP" });
  return { ...signedIn, serverId: gameServer.id };
}

function upload(o: { cookie?: string; serverId?: ServerId }, body: FormData, headers: Record<string, string> = {}) {
  const query = o.serverId === undefined ? "" : `?server_id=${encodeURIComponent(o.serverId)}`;
  return server.request(`/api/portal/upload${query}`, {
    method: "POST",
    headers: { Origin: server.url, ...(o.cookie ? { Cookie: o.cookie } : {}), ...headers },
    body,
  });
}

async function uploadPng(o: Owner, fields: Record<string, string> = {}) {
  const bytes = await png(64, 48);
  const parts = [
    ...Object.entries(fields).map(([field, data]) => ({ field, data })),
    { field: "file", data: bytes, filename: "Bank Heist.png", type: "image/png" },
  ];
  const res = await upload(o, form(parts));
  expect(res.status, await res.clone().text()).toBe(201);
  const body = await res.json();
  return { body, bytes, file: body.files[0] as { id: FileId; public_url: string; file_size: number; is_public: boolean } };
}

async function fileCount(teamId: TeamId) {
  const row = await server.ctx.db
    .selectFrom("files")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("team_id", "=", teamId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("POST /api/portal/upload", () => {
  it("stores a file through the upload pipeline with the page's fields and reserves quota", async () => {
    const o = await owner();
    const { body, bytes, file } = await uploadPng(o, {
      category: "screenshot",
      player_name: "John Doe",
      player_identifier: "license:abc",
      is_public: "false",
    });
    expect(body).toMatchObject({ success: true, original_filename: "Bank Heist.png", mime_type: "image/png", category: "screenshot", is_public: false });
    expect(file.public_url).toMatch(new RegExp(`/f/${o.serverId}/screenshot/[^/]+\\.png$`));
    const row = await server.ctx.db.selectFrom("files").selectAll().where("id", "=", file.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ player_name: "John Doe", player_identifier: "license:abc", team_id: o.teamId });
    expect((await getAccountQuota(server.ctx.db, o.teamId)).usedBytes).toBe(row.size_bytes);
    expect(row.size_bytes).toBeGreaterThan(0);
    expect(bytes.length).toBeGreaterThan(0);
  });

  it("refuses without a session, another site's request, another owner's server and missing information, storing nothing", async () => {
    const o = await owner();
    const stranger = await owner();
    const body = () => form([{ field: "file", data: Buffer.from("hello"), filename: "a.txt", type: "text/plain" }]);

    const anonymous = await upload({ serverId: o.serverId }, body());
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error).toBe("Not authenticated");

    const crossSite = await upload(o, body(), { Origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);

    const notMine = await upload({ cookie: stranger.cookie, serverId: o.serverId }, body());
    expect(notMine.status).toBe(404);
    expect((await notMine.json()).error).toBe("Server not found");

    const noServer = await upload({ cookie: o.cookie }, body());
    expect(noServer.status).toBe(400);
    expect((await noServer.json()).error).toBe("Missing information - Please select a file and server.");

    const noFile = await upload(o, form([{ field: "category", data: "other" }]));
    expect(noFile.status).toBe(400);
    expect((await noFile.json()).error).toBe("Missing information - Please select a file and server.");

    expect(await fileCount(o.teamId)).toBe(0);
    expect((await getAccountQuota(server.ctx.db, o.teamId)).usedBytes).toBe(0);
  });

  it("applies the server's limits: a disallowed type is refused by its bytes, an oversized file with 413", async () => {
    const o = await owner();
    const html = await upload(o, form([{ field: "file", data: Buffer.from("<html><script>alert(1)</script></html>"), filename: "x.png", type: "image/png" }]));
    expect(html.status).toBe(415);
    const small = await createServer(server.ctx.db, { teamId: o.teamId, name: "Tiny", maxFileSizeMb: 1, allowedFileTypes: ["pdf"] });
    const big = await upload({ cookie: o.cookie, serverId: small.id }, form([{ field: "file", data: pdf(1024 * 1024 + 10), filename: "big.pdf", type: "application/pdf" }]));
    expect(big.status).toBe(413);
    expect(await fileCount(o.teamId)).toBe(0);
  });
});

describe("GET /api/media/{id}", () => {
  it("streams the owner's private file inline, as a download under its original name, and its thumbnail", async () => {
    const o = await owner();
    const { bytes, file } = await uploadPng(o, { is_public: "false" });
    const stored = await server.ctx.db.selectFrom("files").select(["size_bytes", "sha256"]).where("id", "=", file.id).executeTakeFirstOrThrow();

    const view = await server.request(`/api/media/${file.id}`, { headers: { Cookie: o.cookie } });
    expect(view.status).toBe(200);
    expect(view.headers.get("content-type")).toBe("image/png");
    expect(view.headers.get("content-disposition")).toMatch(/^inline; filename="Bank Heist.png"/);
    expect(view.headers.get("cache-control")).toBe("private, no-cache");
    expect(view.headers.get("x-content-type-options")).toBe("nosniff");
    const got = Buffer.from(await view.arrayBuffer());
    expect(got.length).toBe(stored.size_bytes);
    expect(bytes.length).toBeGreaterThan(0);

    const download = await server.request(`/api/media/${file.id}?download=1`, { headers: { Cookie: o.cookie } });
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="Bank Heist.png"/);
    await download.arrayBuffer();

    const range = await server.request(`/api/media/${file.id}`, { headers: { Cookie: o.cookie, Range: "bytes=0-9" } });
    expect(range.status).toBe(206);
    expect((await range.arrayBuffer()).byteLength).toBe(10);

    const etag = view.headers.get("etag")!;
    const again = await server.request(`/api/media/${file.id}`, { headers: { Cookie: o.cookie, "If-None-Match": etag } });
    expect(again.status).toBe(304);

    const thumb = await server.request(`/api/media/${file.id}?thumb=1`, { headers: { Cookie: o.cookie } });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/webp");
    await thumb.arrayBuffer();
  });

  it("answers 401 without a session and 404 for another owner's file, a bad id or a file without a thumbnail", async () => {
    const o = await owner();
    const stranger = await owner();
    const { file } = await uploadPng(o);
    expect((await server.request(`/api/media/${file.id}`)).status).toBe(401);
    const foreign = await server.request(`/api/media/${file.id}`, { headers: { Cookie: stranger.cookie } });
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error).toBe("File not found");
    expect((await server.request(`/api/media/not-a-uuid`, { headers: { Cookie: o.cookie } })).status).toBe(404);

    const text = await upload(o, form([{ field: "file", data: Buffer.from("just some notes\n"), filename: "notes.txt", type: "text/plain" }]));
    if (text.status === 201) {
      const { files } = await text.json();
      expect((await server.request(`/api/media/${files[0].id}?thumb=1`, { headers: { Cookie: o.cookie } })).status).toBe(404);
    }
  });
});

describe("gallery and storage pages", () => {
  it("need a session: a visitor is sent to sign in", async () => {
    for (const path of ["/gallery", "/upload", "/storage"]) {
      const res = await server.request(path, { redirect: "manual" });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  it("render the user's files, filter them, and show the empty states", async () => {
    const empty = await owner();
    const gallery = await (await server.request("/gallery", { headers: { Cookie: empty.cookie } })).text();
    expect(gallery).toContain("Upload your first media file to get started");
    const storage = await (await server.request("/storage", { headers: { Cookie: empty.cookie } })).text();
    expect(storage).toContain('href="/upload"');

    const o = await owner();
    await uploadPng(o, { player_name: "Jane Smith" });
    const page = await (await server.request("/gallery", { headers: { Cookie: o.cookie } })).text();
    expect(page).toContain("Bank Heist.png");
    expect(page).toContain("Jane Smith");
    const filtered = await (await server.request("/gallery?category=police_evidence", { headers: { Cookie: o.cookie } })).text();
    expect(filtered).toContain("No files match your current filters");
    const searched = await (await server.request("/gallery?q=jane", { headers: { Cookie: o.cookie } })).text();
    expect(searched).toContain("Bank Heist.png");
  });

  it("delete a file from the storage manager and release its quota at once", async () => {
    const o = await owner();
    const { file } = await uploadPng(o);
    const before = (await getAccountQuota(server.ctx.db, o.teamId)).usedBytes;
    expect(before).toBeGreaterThan(0);
    const res = await postForm(server, "/storage", { intent: "delete", id: file.id }, { cookie: o.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().join(";")).toContain("stash_toast");
    expect((await getAccountQuota(server.ctx.db, o.teamId)).usedBytes).toBe(0);
    expect(await fileCount(o.teamId)).toBe(0);
    expect((await server.request(`/api/media/${file.id}`, { headers: { Cookie: o.cookie } })).status).toBe(404);
  });

  it("bulk-delete only the user's own files and refuse bad requests without changing anything", async () => {
    const o = await owner();
    const stranger = await owner();
    const a = await uploadPng(o);
    const b = await uploadPng(o);
    const theirs = await uploadPng(stranger);

    const foreign = await postForm(server, "/gallery", { intent: "delete", id: theirs.file.id }, { cookie: o.cookie });
    expect(foreign.status).toBe(404);
    expect(await fileCount(stranger.teamId)).toBe(1);

    const nothing = await postForm(server, "/gallery", { intent: "delete" }, { cookie: o.cookie });
    expect(nothing.status).toBe(400);

    const crossSite = await postForm(server, "/gallery", { intent: "delete", id: a.file.id }, { cookie: o.cookie, headers: { Origin: "https://evil.example" } });
    expect(crossSite.status).toBe(403);
    expect(await fileCount(o.teamId)).toBe(2);

    const body = new URLSearchParams([
      ["intent", "delete"],
      ["id", a.file.id],
      ["id", b.file.id],
      ["id", theirs.file.id],
    ]);
    const res = await server.request("/gallery", {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, Cookie: o.cookie },
      body: body.toString(),
    });
    expect(res.status).toBe(200);
    expect(await fileCount(o.teamId)).toBe(0);
    expect(await fileCount(stranger.teamId)).toBe(1);
    expect((await getAccountQuota(server.ctx.db, o.teamId)).usedBytes).toBe(0);
  });

  it("warns above 90% of the quota and caps the bar at 100%", async () => {
    const o = await owner();
    const calm = await (await server.request("/storage", { headers: { Cookie: o.cookie } })).text();
    expect(calm).not.toContain("running low on storage");
    expect(await reserveQuota(server.ctx.db, o.teamId, Math.round(4.7 * GB))).toBe(true);
    const low = await (await server.request("/storage", { headers: { Cookie: o.cookie } })).text();
    expect(low).toContain("running low on storage");
    expect(low).toContain("94% used");
    await server.ctx.db.updateTable("account_usage").set({ used_bytes: 6 * GB }).where("team_id", "=", o.teamId).execute();
    const over = await (await server.request("/storage", { headers: { Cookie: o.cookie } })).text();
    expect(over).toContain("120% used");
    expect(over).toContain('aria-valuenow="100"');
    expect(over).toContain("0 B remaining");
  });

  it("preselect the upload server from ?server= or when there is only one", async () => {
    const o = await owner();
    const selected = (html: string, id: string) => html.includes(`<option value="${id}" selected="">`);
    const only = await (await server.request("/upload", { headers: { Cookie: o.cookie } })).text();
    expect(selected(only, o.serverId)).toBe(true);
    const second = await createServer(server.ctx.db, { teamId: o.teamId, name: "Paleto RP" });
    const none = await (await server.request("/upload", { headers: { Cookie: o.cookie } })).text();
    expect(selected(none, o.serverId) || selected(none, second.id)).toBe(false);
    const chosen = await (await server.request(`/upload?server=${second.id}`, { headers: { Cookie: o.cookie } })).text();
    expect(selected(chosen, second.id)).toBe(true);
  });
});
