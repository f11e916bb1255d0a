import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect } from "vitest";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { upsertRetentionRule } from "../../app/services/retention/rules.server.ts";
import { sweepExpiredFiles } from "../../app/services/retention/sweep.server.ts";
import { postForm, readToast, signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { form, png } from "../helpers/upload-fixtures.ts";
import { expectApiResponse } from "../helpers/openapi.ts";
import type { FileId, ServerId } from "../../app/lib/ids.ts";

let server: TestServer;
test.beforeAll(async ({ server: started }) => {
  server = started;
});

interface Owner extends SignedInUser {
  serverId: ServerId;
  webhookSecret: string;
  key: string;
}

async function owner(): Promise<Owner> {
  const who = await signUpAndSignIn(server);
  // A server as a new owner makes it: the default types (images, video, audio; no documents).
  const gameServer = await createServer(server.ctx.db, { teamId: who.teamId, name: "Mission Row RP" });
  const { secret } = await createApiKey(server.ctx.db, { serverId: gameServer.id, teamId: who.teamId, name: "mdt script" });
  return { ...who, serverId: gameServer.id, webhookSecret: gameServer.webhook_secret, key: secret };
}

type Uploaded = { id: FileId; url: string; file_size: number };

/** A lossless WebP of noise: incompressible, so its size grows strictly with `side` (the sort tests rely on it). */
function noiseWebp(side: number): Promise<Buffer> {
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).webp({ lossless: true }).toBuffer();
}

async function viaKey(o: Owner, fields: Record<string, string>, file?: { data: Buffer; filename: string }): Promise<Uploaded> {
  file ??= { data: await noiseWebp(40), filename: "shot.webp" };
  const res = await server.request("/api/upload", {
    method: "POST",
    headers: { "x-api-key": o.key },
    body: form([...Object.entries(fields).map(([field, data]) => ({ field, data })), { field: "file", ...file }]),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Uploaded;
}

const detailPage = async (o: Owner, id: FileId) => {
  const res = await server.request(`/gallery/${id}`, { headers: { Cookie: o.cookie } });
  return { status: res.status, html: (await res.text()).replace(/<!-- -->/g, "") };
};
const act = (o: Owner, pathname: string, fields: Record<string, string | string[]>) => postForm(server, pathname, fields, { cookie: o.cookie });

describe("file detail view", () => {
  test("shows every record of a file and who sent it: key, portal or webhook", async () => {
    const o = await owner();
    const image = await viaKey(o, { category: "police_evidence", player_name: "Jane Vega", player_identifier: "license:abc123", metadata: JSON.stringify({ case_number: "LSPD-2291", officer: "Ramos" }) }, { data: await png(64, 48), filename: "mugshot.png" });
    const { status, html } = await detailPage(o, image.id);
    expect(status).toBe(200);
    for (const text of ["mugshot.png", "image/png", "64 × 48 px", "Mission Row RP", "Police Evidence", "Jane Vega", "license:abc123", "case_number", "LSPD-2291", "officer", "API key &quot;mdt script&quot;", "Public", "Thumbnail (320 px WebP)"]) {
      expect(html, text).toContain(text);
    }
    // Free plan: kept 30 days, and the page says until when.
    expect(html).not.toContain("Never: kept until you delete it");

    const portalForm = form([{ field: "file", data: await noiseWebp(20), filename: "notes.webp" }]);
    const portal = await server.request(`/api/portal/upload?server_id=${o.serverId}`, { method: "POST", headers: { Origin: server.url, Cookie: o.cookie }, body: portalForm });
    expect(portal.status).toBe(201);
    expect((await detailPage(o, ((await portal.json()) as Uploaded).id)).html).toContain("The portal&#x27;s Upload page");

    const hook = await server.request(`/api/webhooks/${o.serverId}/${o.webhookSecret}`, { method: "POST", body: form([{ field: "file", data: await noiseWebp(20), filename: "hook.webp" }]) });
    expect(hook.status).toBe(200);
    const hookRow = await server.ctx.db.selectFrom("files").select("id").where("server_id", "=", o.serverId).where("original_filename", "=", "hook.webp").executeTakeFirstOrThrow();
    expect((await detailPage(o, hookRow.id)).html).toContain("Discord-style webhook");

    const stranger = await owner();
    expect((await detailPage(stranger, image.id)).status).toBe(404);
    expect((await detailPage(o, "not-a-uuid" as FileId)).status).toBe(404);
  });

  test("changes visibility and category, and /f/ follows at once; refusals change nothing", async () => {
    const o = await owner();
    const file = await viaKey(o, { category: "screenshots" });
    expect((await fetch(file.url)).status).toBe(200);

    const priv = await act(o, `/gallery/${file.id}`, { intent: "visibility", visibility: "private" });
    expect(priv.status).toBe(200);
    expect(readToast(priv)).toMatchObject({ title: "Visibility updated", description: "The file is now private." });
    expect((await fetch(file.url)).status).toBe(404);
    expect((await act(o, `/gallery/${file.id}`, { intent: "visibility", visibility: "public" })).status).toBe(200);
    expect((await fetch(file.url)).status).toBe(200);

    const blank = await act(o, `/gallery/${file.id}`, { intent: "category", category: " <b></b> " });
    expect(blank.status).toBe(400);
    expect(readToast(blank)?.description).toBe("Category is required");
    const moved = await act(o, `/gallery/${file.id}`, { intent: "category", category: "Police Evidence" });
    expect(moved.status).toBe(200);
    expect(readToast(moved)?.description).toContain("Moved 1 file to Police Evidence; their links changed.");
    const newUrl = file.url.replace("/screenshots/", "/police_evidence/");
    expect((await fetch(file.url)).status).toBe(404);
    expect((await fetch(newUrl)).status).toBe(200);

    const stranger = await owner();
    for (const fields of [{ intent: "visibility", visibility: "private" }, { intent: "category", category: "other" }, { intent: "delete" }] as Record<string, string>[]) {
      expect((await act(stranger, `/gallery/${file.id}`, fields)).status).toBe(404);
    }
    expect((await fetch(newUrl)).status).toBe(200);

    const deleted = await act(o, `/gallery/${file.id}`, { intent: "delete" });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/gallery");
    expect((await fetch(newUrl)).status).toBe(404);
  });
});

describe("keep forever", () => {
  test("a free-plan upload asking to be kept forever is stored, and its answer says plainly that it will expire", async () => {
    const free = await owner();
    const res = await server.request("/api/upload", {
      method: "POST",
      headers: { "x-api-key": free.key },
      body: form([{ field: "retention_exempt", data: "true" }, { field: "file", data: await noiseWebp(20), filename: "bodycam.webp" }]),
    });
    expect(res.status).toBe(201);
    const body = await expectApiResponse(res, "post", "/api/upload");
    expect(body).toMatchObject({ retention_exempt: false, expires_at: expect.any(String), retention_warning: expect.stringContaining("needs a paid plan") });
    expect(body.retention_warning).toContain(body.expires_at);
    expect(body.files[0].retention_warning).toBe(body.retention_warning);
    expect(await server.ctx.db.selectFrom("files").select(["retention_exempt"]).where("id", "=", body.id).executeTakeFirst()).toEqual({ retention_exempt: false });
    // The same upload as JSON, and one that did not ask: no warning for the latter.
    const asJson = await server.request("/api/upload/base64", {
      method: "POST",
      headers: { "x-api-key": free.key, "Content-Type": "application/json" },
      body: JSON.stringify({ base64: (await noiseWebp(12)).toString("base64"), filename: "dash.webp", retention_exempt: true }),
    });
    expect(await asJson.json()).toMatchObject({ retention_exempt: false, retention_warning: expect.stringContaining("needs a paid plan") });
    expect(await viaKey(free, {})).not.toHaveProperty("retention_warning");
  });

  test("a paid plan exempts a file from retention rules (from the page or retention_exempt on upload); the free plan cannot", async () => {
    const free = await owner();
    const freeFile = await viaKey(free, { retention_exempt: "true" });
    expect((freeFile as unknown as { retention_exempt: boolean }).retention_exempt).toBe(false);
    const refused = await act(free, `/gallery/${freeFile.id}`, { intent: "keepForever", keep: "on" });
    expect(refused.status).toBe(400);
    expect(readToast(refused)?.description).toContain("needs a paid plan");
    expect((await detailPage(free, freeFile.id)).html).toContain("On the free plan files are kept 30 days.");

    const paid = await owner();
    await server.ctx.db.updateTable("subscriptions").set({ tier: "starter", status: "active" }).where("team_id", "=", paid.teamId).execute();
    const viaUpload = await viaKey(paid, { category: "bodycam", retention_exempt: "true" });
    expect(viaUpload).toMatchObject({ retention_exempt: true });
    expect(viaUpload).not.toHaveProperty("retention_warning");
    const kept = await viaKey(paid, { category: "bodycam" });
    const neighbour = await viaKey(paid, { category: "bodycam" });
    const ok = await act(paid, `/gallery/${kept.id}`, { intent: "keepForever", keep: "on" });
    expect(readToast(ok)).toMatchObject({ title: "Kept forever" });
    expect((await act(paid, "/gallery/not-a-file", { intent: "keepForever", keep: "on" })).status).toBe(404);
    expect((await detailPage(paid, kept.id)).html).toContain("Never: kept forever");

    await upsertRetentionRule(server.ctx.db, (await server.ctx.db.selectFrom("files").select("server_id").where("id", "=", kept.id).executeTakeFirstOrThrow()).server_id, { category: "bodycam", days: 1 });
    const result = await sweepExpiredFiles(server.ctx, { now: new Date(Date.now() + 2 * 86_400_000) });
    expect(result.ran).toBe(true);
    const left = await server.ctx.db.selectFrom("files").select("id").where("team_id", "=", paid.teamId).execute();
    expect(left.map((r) => r.id).sort()).toEqual([kept.id, viaUpload.id].sort());
    expect(left.map((r) => r.id)).not.toContain(neighbour.id);
    expect((await fetch(kept.url)).status).toBe(200);
  });
});

describe("text cleaning on script uploads", () => {
  test("player names and display filenames lose tags and scripts, as every typed text does", async () => {
    const o = await owner();
    const file = await viaKey(o, { player_name: "<script>alert(1)</script>Jane <b>Vega</b>", filename: "<img src=x onerror=alert(1)>report.webp" });
    const row = await server.ctx.db.selectFrom("files").select(["player_name", "original_filename"]).where("id", "=", file.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ player_name: "Jane Vega", original_filename: "report.webp" });
  });
});

describe("gallery bulk actions", () => {
  test("visibility, category and zip apply to the owner's selection only", async () => {
    const o = await owner();
    const stranger = await owner();
    const mine = [await viaKey(o, { category: "bodycam" }, { data: await noiseWebp(30), filename: "a.webp" }), await viaKey(o, { category: "bodycam" }, { data: await noiseWebp(40), filename: "a.webp" })];
    const theirs = await viaKey(stranger, {});
    const ids = [...mine.map((f) => f.id), theirs.id];

    const vis = await act(o, "/gallery", { intent: "visibility", visibility: "private", id: ids });
    expect(readToast(vis)?.description).toBe("2 files are now private.");
    for (const f of mine) expect((await fetch(f.url)).status).toBe(404);
    expect((await fetch(theirs.url)).status).toBe(200);
    expect((await act(o, "/gallery", { intent: "visibility", visibility: "sideways", id: ids })).status).toBe(400);
    expect((await act(o, "/gallery", { intent: "visibility", visibility: "public", id: [] })).status).toBe(400);
    expect((await act(o, "/gallery", { intent: "launch", id: ids })).status).toBe(400);

    const move = await act(o, "/gallery", { intent: "category", category: "Case 2291", id: ids });
    expect(readToast(move)?.description).toContain("Moved 2 files to");
    const rows = await server.ctx.db.selectFrom("files").select(["category", "team_id"]).where("id", "in", ids).execute();
    expect(rows.filter((r) => r.team_id === o.teamId).map((r) => r.category)).toEqual(["case_2291", "case_2291"]);
    expect(rows.find((r) => r.team_id === stranger.teamId)?.category).not.toBe("case_2291");

    const zip = await server.request(`/api/portal/files.zip?${new URLSearchParams(ids.map((id) => ["id", id]))}`, { headers: { Cookie: o.cookie } });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    expect(zip.headers.get("content-disposition")).toMatch(/^attachment; filename="stash-files-\d{4}-\d{2}-\d{2}\.zip"$/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-zip-"));
    fs.writeFileSync(path.join(dir, "files.zip"), Buffer.from(await zip.arrayBuffer()));
    execFileSync("unzip", ["-q", "files.zip", "-d", "out"], { cwd: dir });
    const names = fs.readdirSync(path.join(dir, "out")).sort();
    expect(names).toEqual(["a (2).webp", "a.webp"]);
    expect(names.map((n) => fs.statSync(path.join(dir, "out", n)).size).sort()).toEqual(mine.map((f) => f.file_size).sort());
    fs.rmSync(dir, { recursive: true, force: true });

    expect((await server.request(`/api/portal/files.zip?id=${theirs.id}`, { headers: { Cookie: o.cookie } })).status).toBe(404);
    expect((await server.request(`/api/portal/files.zip?id=${mine[0]!.id}`)).status).toBe(401);
  });
});

describe("sorting and the storage breakdown", () => {
  test("every order pages through all files once; the Storage Manager lists largest first with usage by server and category", async () => {
    const o = await owner();
    const sides = [60, 20, 50, 30, 45];
    const names = ["delta.webp", "Alpha.webp", "echo.webp", "charlie.webp", "bravo.webp"];
    for (const [i, side] of sides.entries()) await viaKey(o, { category: i % 2 ? "bodycam" : "screenshots" }, { data: await noiseWebp(side), filename: names[i]! });
    const { listGalleryFiles } = await import("../../app/services/files/gallery.server.ts");
    const walk = async (sort: "newest" | "oldest" | "largest" | "name") => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof listGalleryFiles>> = await listGalleryFiles(server.ctx.db, o.teamId, { sort, cursor, limit: 2 });
        seen.push(...page.files.map((f) => f.originalFilename));
        cursor = page.nextCursor;
      } while (cursor);
      return seen;
    };
    expect(await walk("name")).toEqual(["Alpha.webp", "bravo.webp", "charlie.webp", "delta.webp", "echo.webp"]);
    expect(await walk("largest")).toEqual(["delta.webp", "echo.webp", "bravo.webp", "charlie.webp", "Alpha.webp"]);
    expect(await walk("oldest")).toEqual(names);
    expect(await walk("newest")).toEqual([...names].reverse());

    // Player (name or identifier, any case) and upload day filters.
    const tagged = await viaKey(o, { player_name: "Jane Vega", player_identifier: "license:ABC" }, { data: await noiseWebp(10), filename: "tagged.webp" });
    await server.ctx.db.updateTable("files").set({ created_at: new Date("2026-03-10T23:30:00Z") }).where("id", "=", tagged.id).execute();
    const only = async (query: Record<string, string>) => (await listGalleryFiles(server.ctx.db, o.teamId, query)).files.map((f) => f.originalFilename);
    expect(await only({ player: "jane vega" })).toEqual(["tagged.webp"]);
    expect(await only({ player: "LICENSE:abc" })).toEqual(["tagged.webp"]);
    expect(await only({ player: "Jane" })).toEqual([]);
    expect(await only({ from: "2026-03-10", to: "2026-03-10" })).toEqual(["tagged.webp"]);
    expect(await only({ from: "2026-03-11", to: "2026-03-11" })).toEqual([]);
    expect(await only({ to: "2026-03-09" })).toEqual([]);
    await server.ctx.db.deleteFrom("files").where("id", "=", tagged.id).execute();

    const html = (await (await server.request("/storage", { headers: { Cookie: o.cookie } })).text()).replace(/<!-- -->/g, "");
    expect(html.indexOf("delta.webp")).toBeLessThan(html.indexOf("echo.webp"));
    expect(html.indexOf("echo.webp")).toBeLessThan(html.indexOf("Alpha.webp"));
    expect(html).toContain("By server");
    expect(html).toContain("Mission Row RP");
    expect(html).toContain("By category");
    expect(html.match(/data-testid="usage-slice"/g)).toHaveLength(3);
  });
});
