import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect } from "vitest";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { sweepExpiredFiles } from "../../app/services/retention/sweep.server.ts";
import { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import { deleteReportedFile } from "../../app/services/files/file-reports.server.ts";
import { postForm, signUpAndSignIn } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, png } from "../helpers/upload-fixtures.ts";
import { staffTeam } from "../helpers/teams.ts";

/** A free-plan owner with a server made with the portal's defaults, an MDT key (upload, read) and a supervisor key (delete too). */
async function department(server: TestServer) {
  const who = await signUpAndSignIn(server);
  const srv = await createServer(server.ctx.db, { teamId: who.teamId, name: "Mission Row PD" });
  const mdt = await createApiKey(server.ctx.db, { serverId: srv.id, teamId: who.teamId, name: "MDT", permissions: ["upload", "read"] });
  const chief = await createApiKey(server.ctx.db, { serverId: srv.id, teamId: who.teamId, name: "Chief", permissions: ["upload", "read", "delete"] });
  return { ...who, serverId: srv.id, mdt: mdt.secret, chief: chief.secret };
}

async function upload(server: TestServer, key: string, fields: Record<string, string>, name: string, width = 24) {
  const res = await server.request("/api/upload", {
    method: "POST",
    headers: { "x-api-key": key },
    body: form([...Object.entries(fields).map(([field, data]) => ({ field, data })), { field: "file", data: await png(width, 18), filename: name, type: "image/png" }]),
  });
  return { status: res.status, body: await res.json() };
}

const json = (key: string) => ({ "x-api-key": key, "Content-Type": "application/json" });

describe("evidence cases", () => {
  test("an MDT files uploads into a case; they outlive a retention sweep and cannot be deleted while it is open; the export verifies", async ({ server }) => {
    const pd = await department(server);
    const opened = await server.request("/api/cases", { method: "POST", headers: json(pd.mdt), body: JSON.stringify({ number: "LSPD-2291", title: "Vinewood robbery" }) });
    expect(opened.status).toBe(201);
    expect((await opened.json()).case).toMatchObject({ number: "LSPD-2291", title: "Vinewood robbery", status: "open" });
    // The same case again (an MDT sends it with every call) is the same case.
    expect((await server.request("/api/cases", { method: "POST", headers: json(pd.mdt), body: JSON.stringify({ number: "LSPD-2291" }) })).status).toBe(200);

    const mugshot = await upload(server, pd.mdt, { category: "mugshots", case: "LSPD-2291", metadata: JSON.stringify({ officer: "Ramos" }) }, "mugshot.png");
    expect(mugshot.status).toBe(201);
    const bodycam = await upload(server, pd.mdt, { category: "bodycam" }, "still.png", 30);
    const neighbour = await upload(server, pd.mdt, { category: "mugshots" }, "other.png", 28);
    const added = await server.request("/api/cases/LSPD-2291/files", { method: "POST", headers: json(pd.mdt), body: JSON.stringify({ file_ids: [bodycam.body.id] }) });
    expect((await added.json()).added).toBe(1);
    const listed = await (await server.request("/api/cases/LSPD-2291", { headers: { "x-api-key": pd.mdt } })).json();
    expect(listed.case.files.map((f: { id: string }) => f.id)).toEqual([mugshot.body.id, bodycam.body.id]);

    // Free plan: every file is due after 30 days. The case's files stay; the neighbour goes.
    const result = await sweepExpiredFiles(server.ctx, { now: new Date(Date.now() + 31 * 86_400_000) });
    expect(result.ran).toBe(true);
    const left = (await server.ctx.db.selectFrom("files").select("id").where("server_id", "=", pd.serverId).execute()).map((r) => r.id).sort();
    expect(left).toEqual([mugshot.body.id, bodycam.body.id].sort());
    expect(left).not.toContain(neighbour.body.id);

    // Not deletable while the case is open: by a key with delete permission, nor in the portal.
    const usedBefore = (await getAccountQuota(server.ctx.db, pd.teamId)).usedBytes;
    const byKey = await server.request(`/api/files/${mugshot.body.id}`, { method: "DELETE", headers: { "x-api-key": pd.chief } });
    expect(byKey.status).toBe(409);
    expect(await byKey.json()).toMatchObject({ code: "file_in_open_case", message: "This file is evidence in open case LSPD-2291; close the case before deleting it" });
    const inPortal = await postForm(server, "/gallery", { intent: "delete", id: mugshot.body.id }, { cookie: pd.cookie });
    expect(inPortal.status).toBe(409);
    expect((await getAccountQuota(server.ctx.db, pd.teamId)).usedBytes).toBe(usedBefore);
    expect((await fetch(mugshot.body.url)).status).toBe(200);

    // The export: every file, a manifest with their SHA-256 and who filed them, and Stash's signature.
    const zip = await server.request("/api/cases/LSPD-2291/export", { headers: { "x-api-key": pd.mdt } });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-disposition")).toBe('attachment; filename="case-LSPD-2291.zip"');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "case-"));
    fs.writeFileSync(path.join(dir, "case.zip"), Buffer.from(await zip.arrayBuffer()));
    execFileSync("unzip", ["-q", "case.zip", "-d", "out"], { cwd: dir });
    const manifestText = fs.readFileSync(path.join(dir, "out", "manifest.json"), "utf8");
    const manifest = JSON.parse(manifestText);
    expect(manifest.case).toMatchObject({ number: "LSPD-2291", title: "Vinewood robbery", status: "open" });
    expect(manifest.files).toHaveLength(2);
    for (const entry of manifest.files) {
      const bytes = fs.readFileSync(path.join(dir, "out", entry.path));
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(entry.sha256);
      expect(entry).toMatchObject({ upload_key: "MDT", added_by: "key MDT", uploaded_via: "api" });
    }
    expect(manifest.files[0]).toMatchObject({ original_filename: "mugshot.png", metadata: { officer: "Ramos" } });
    const signature = fs.readFileSync(path.join(dir, "out", "manifest.sig"), "utf8");
    const verify = (body: object) => server.request("/api/cases/verify", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());
    expect(await verify({ manifest: manifestText, signature })).toMatchObject({ valid: true });
    expect(await verify({ manifest: manifestText.replace("Ramos", "Romero"), signature })).toMatchObject({ valid: false });
    expect(await verify({ manifest: manifestText, signature: "0".repeat(64) })).toMatchObject({ valid: false });
    fs.rmSync(dir, { recursive: true, force: true });

    // Closing needs delete permission; once closed the files may go, and nothing more may be filed.
    expect((await server.request("/api/cases/LSPD-2291/close", { method: "POST", headers: { "x-api-key": pd.mdt } })).status).toBe(403);
    const closed = await server.request("/api/cases/LSPD-2291/close", { method: "POST", headers: { "x-api-key": pd.chief } });
    expect((await closed.json()).case.status).toBe("closed");
    const footprint = async () => ({
      files: (await server.ctx.db.selectFrom("files").select("id").where("server_id", "=", pd.serverId).execute()).length,
      used: (await getAccountQuota(server.ctx.db, pd.teamId)).usedBytes,
      uploadsToday: Number((await server.ctx.db.selectFrom("usage_daily").select("uploads").where("server_id", "=", pd.serverId).executeTakeFirst())?.uploads ?? 0),
    });
    const beforeLate = await footprint();
    const late = await upload(server, pd.mdt, { category: "mugshots", case: "LSPD-2291" }, "late.png", 26);
    expect(late.status).toBe(400);
    expect(late.body.message).toBe("Case LSPD-2291 is closed; reopen it to add files");
    // Refused before anything is stored or counted.
    expect(await footprint()).toEqual(beforeLate);
    expect(beforeLate.files).toBe(2);
    expect((await server.request(`/api/files/${mugshot.body.id}`, { method: "DELETE", headers: { "x-api-key": pd.chief } })).status).toBe(200);
  });

  test("the owner opens, lists, exports and closes cases in the portal; nobody else can", async ({ server }) => {
    const pd = await department(server);
    const page = async (cookie = pd.cookie) => (await (await server.request("/cases", { headers: { Cookie: cookie } })).text()).replace(/<!-- -->/g, "");
    expect(await page()).toContain("No cases yet");
    const refused = await postForm(server, "/cases", { intent: "open", serverId: pd.serverId, number: "no spaces allowed", title: "" }, { cookie: pd.cookie });
    expect(refused.status).toBe(400);
    expect((await postForm(server, "/cases", { intent: "open", serverId: pd.serverId, number: "LSPD-77", title: "Paleto heist", notes: "Two suspects" }, { cookie: pd.cookie })).status).toBe(200);
    expect((await upload(server, pd.mdt, { category: "bodycam", case: "LSPD-77" }, "cam.png")).status).toBe(201);

    const listed = await page();
    expect(listed).toContain("LSPD-77 · Paleto heist");
    expect(listed).toMatch(/data-testid="case-files">1 file</);
    expect(listed).toContain("Two suspects");
    const caseId = (await server.ctx.db.selectFrom("cases").select("id").where("server_id", "=", pd.serverId).executeTakeFirstOrThrow()).id;
    const zip = await server.request(`/cases/${caseId}/export.zip`, { headers: { Cookie: pd.cookie } });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "case-"));
    fs.writeFileSync(path.join(dir, "case.zip"), Buffer.from(await zip.arrayBuffer()));
    const exported = JSON.parse(execFileSync("unzip", ["-p", "case.zip", "manifest.json"], { cwd: dir, encoding: "utf8" }));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(exported.case).toMatchObject({ number: "LSPD-77", title: "Paleto heist" });
    expect(exported.files.map((f: { original_filename: string }) => f.original_filename)).toEqual(["cam.png"]);

    // One more file, filed from its own page.
    const loose = await upload(server, pd.mdt, { category: "bodycam" }, "loose.png", 20);
    const detail = async () => (await (await server.request(`/gallery/${loose.body.id}`, { headers: { Cookie: pd.cookie } })).text()).replace(/<!-- -->/g, "");
    expect(await detail()).toContain("LSPD-77 · Paleto heist");
    expect((await postForm(server, `/gallery/${loose.body.id}`, { intent: "addToCase", caseId }, { cookie: pd.cookie })).status).toBe(200);
    expect(await detail()).toMatch(/data-testid="file-cases">Evidence in case LSPD-77</);
    expect(await page()).toMatch(/data-testid="case-files">2 files</);

    const stranger = await signUpAndSignIn(server);
    expect((await postForm(server, `/gallery/${loose.body.id}`, { intent: "addToCase", caseId }, { cookie: stranger.cookie })).status).toBe(404);
    expect((await server.request(`/cases/${caseId}/export.zip`, { headers: { Cookie: stranger.cookie } })).status).toBe(404);
    expect(await page(stranger.cookie)).not.toContain("LSPD-77");
    expect((await postForm(server, "/cases", { intent: "close", caseId }, { cookie: stranger.cookie })).status).toBe(404);

    expect((await postForm(server, "/cases", { intent: "close", caseId }, { cookie: pd.cookie })).status).toBe(200);
    expect((await server.ctx.db.selectFrom("cases").select("status").where("id", "=", caseId).executeTakeFirstOrThrow()).status).toBe("closed");
  });

  test("refuses bad case numbers and other servers' cases, storing nothing", async ({ server }) => {
    const pd = await department(server);
    const other = await department(server);
    const bad = await upload(server, pd.mdt, { case: "../etc" }, "a.png");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "invalid_request", field: "case" });
    expect((await server.ctx.db.selectFrom("files").select("id").where("server_id", "=", pd.serverId).execute()).length).toBe(0);
    await server.request("/api/cases", { method: "POST", headers: json(other.mdt), body: JSON.stringify({ number: "SAHP-1" }) });
    expect((await server.request("/api/cases/SAHP-1", { headers: { "x-api-key": pd.mdt } })).status).toBe(404);
    expect((await server.request("/api/cases/SAHP-1/export", { headers: { "x-api-key": pd.mdt } })).status).toBe(404);
    const foreign = await upload(server, other.mdt, { category: "mugshots" }, "b.png");
    await server.request("/api/cases", { method: "POST", headers: json(pd.mdt), body: JSON.stringify({ number: "LSPD-1" }) });
    const added = await server.request("/api/cases/LSPD-1/files", { method: "POST", headers: json(pd.mdt), body: JSON.stringify({ file_ids: [foreign.body.id] }) });
    expect((await added.json()).added).toBe(0);

    // A takedown after an abuse report is the platform's duty: an open case does not stop it.
    const evidence = await upload(server, pd.mdt, { category: "mugshots", case: "LSPD-1" }, "reported.png");
    expect(await deleteReportedFile(server.ctx, evidence.body.id)).toBe(true);
    expect(await server.ctx.db.selectFrom("files").select("id").where("id", "=", evidence.body.id).executeTakeFirst()).toBeUndefined();
  });

  test("evidence in an open case stays served and downloadable past its expiry; once the case closes, it expires", async ({ server }) => {
    const team = await staffTeam(server, "Rockford");
    const send = async (fields: Record<string, string>, name: string) => {
      const res = await upload(server, team.key, fields, name);
      expect(res.status).toBe(201);
      return res.body as { id: string; url: string };
    };
    const kept = await send({ case: "XT-0020", is_public: "false" }, "kept.png");
    const shown = await send({ case: "XT-0020" }, "shown.png");
    const loose = await send({}, "loose.png");
    // Their retention date passed (as on a free plan after 30 days); the sweep keeps the case's files.
    await server.ctx.db.updateTable("files").set({ expires_at: new Date(Date.now() - 60_000) }).where("server_id", "=", team.serverId).execute();
    const key = { "x-api-key": team.key };
    const path = (url: string) => new URL(url).pathname;

    for (const file of [kept, shown]) {
      expect((await server.request(`/api/download/${file.id}`, { headers: key })).status).toBe(200);
      expect(await (await server.request(`/api/files/${file.id}`, { headers: key })).json()).toMatchObject({ id: file.id, success: true });
      expect((await server.request(`/api/media/${file.id}`, { headers: { Cookie: team.member.cookie } })).status).toBe(200);
    }
    expect((await server.request(path(shown.url))).status).toBe(200);
    expect((await server.request(path(kept.url), { headers: key })).status).toBe(200);
    // A file in no case is gone at its expiry, as before.
    expect((await server.request(`/api/download/${loose.id}`, { headers: key })).status).toBe(404);
    expect((await server.request(path(loose.url))).status).toBe(404);

    const evidence = await server.ctx.db.selectFrom("cases").select("id").where("server_id", "=", team.serverId).where("number", "=", "XT-0020").executeTakeFirstOrThrow();
    expect((await postForm(server, "/cases", { intent: "close", caseId: evidence.id }, { cookie: team.admin.cookie })).status).toBe(200);
    expect((await server.request(`/api/download/${kept.id}`, { headers: key })).status).toBe(404);
    expect((await server.request(`/api/files/${kept.id}`, { headers: key })).status).toBe(404);
    // /f/ keeps a file's record for a few seconds (the cross-instance cache); then it expires there too.
    await expect.poll(async () => (await server.request(path(shown.url))).status, { timeout: 10_000, interval: 500 }).toBe(404);
  });
});
