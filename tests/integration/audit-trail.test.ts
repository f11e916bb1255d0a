import { describe, expect } from "vitest";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { setTeamPlan } from "../../app/services/billing/subscriptions.server.ts";
import { purgeAuditEntries, recordAudit } from "../../app/services/platform/audit-trail.server.ts";
import { createTestUser, postForm, readToast, signUpAndSignIn } from "../helpers/auth.ts";
import { auditExport, auditRows, type ExportedEntry } from "../helpers/audit.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { createKeyAs, staffTeam, type StaffTeam } from "../helpers/teams.ts";
import { form, png } from "../helpers/upload-fixtures.ts";
import type { FileId, TeamId } from "../../app/lib/ids.ts";

const DAY = 86_400_000;

interface Uploaded {
  id: FileId;
  name: string;
}

/** Files sent in one multipart request with the team's key, as an MDT sends a batch of shots. */
async function uploadWithKey(server: TestServer, key: string, names: string[], fields: { field: string; data: string }[] = []): Promise<Uploaded[]> {
  const parts = await Promise.all(names.map(async (name, i) => ({ field: "file", data: await png(12 + i, 10), filename: name, type: "image/png" })));
  const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": key }, body: form([...fields, ...parts]) });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { files: { id: FileId; original_filename: string }[] };
  return body.files.map((f) => ({ id: f.id, name: f.original_filename }));
}

const named = (file: Uploaded) => `${file.name} (${file.id})`;
const keyed = (team: StaffTeam) => ({ "x-api-key": team.key });
/** The newest exported entry of `action`. */
const newest = (entries: ExportedEntry[], action: string) => entries.find((entry) => entry.action === action);

describe("audit log", () => {
  test("names what each entry acted on: files by name and id, cases by number, keys by name, members by e-mail", async ({ server }) => {
    const team = await staffTeam(server, "Mission Row");
    const shots = await uploadWithKey(server, team.key, ["a.png", "b.png", "c.png", "d.png", "e.png"]);
    const [a, b, c] = shots as [Uploaded, Uploaded, Uploaded];
    expect((await server.request(`/api/files/${a.id}/signed-url`, { headers: keyed(team) })).status).toBe(200);
    expect((await server.request("/api/upload/presign?category=mugshots&mime_type=image/png", { headers: keyed(team) })).status).toBe(200);
    expect((await server.request(`/api/files/${c.id}`, { method: "DELETE", headers: keyed(team) })).status).toBe(200);
    const opened = await server.request("/api/cases", { method: "POST", headers: { ...keyed(team), "Content-Type": "application/json" }, body: JSON.stringify({ number: "XT-0020", file_ids: [a.id] }) });
    expect(opened.status).toBe(201);
    expect((await server.request("/api/cases/XT-0020", { headers: keyed(team) })).status).toBe(200);
    // In the portal: one file made private, the four left (and one already gone) deleted at once, a member's access changed.
    expect((await postForm(server, "/gallery", { intent: "visibility", visibility: "private", id: b.id }, { cookie: team.owner.cookie })).status).toBe(200);
    expect((await postForm(server, "/cases", { intent: "close", caseId: await caseIdOf(server, team, "XT-0020") }, { cookie: team.admin.cookie })).status).toBe(200);
    const rest = shots.filter((f) => f !== c);
    expect((await postForm(server, "/gallery", { intent: "delete", id: [...rest.map((f) => f.id), c.id] }, { cookie: team.owner.cookie })).status).toBe(200);
    expect((await postForm(server, "/team", { intent: "member-update", userId: team.member.user.id, role: "member", permissions: ["view_media"] }, { cookie: team.admin.cookie })).status).toBe(200);

    const rows = await auditRows(server, team.owner);
    expect(rows.slice(0, 10)).toEqual([
      { actor: "The admin", action: "Changed a member's access", target: team.member.email, refused: "" },
      { actor: "Mission Row Owner", action: "Deleted files", target: expect.stringMatching(/^4 files: (\S+ \([0-9a-f-]{36}\), ){2}\S+ \([0-9a-f-]{36}\) and 1 more$/), refused: "" },
      { actor: "The admin", action: "Closed a case", target: "Case XT-0020", refused: "" },
      { actor: "Mission Row Owner", action: "Changed visibility", target: named(b), refused: "" },
      { actor: "Owner's script", action: "Read a case", target: "Case XT-0020", refused: "" },
      { actor: "Owner's script", action: "Opened a case", target: "Case XT-0020", refused: "" },
      { actor: "Owner's script", action: "Deleted files", target: named(c), refused: "" },
      { actor: "Owner's script", action: "Made an upload URL", target: expect.stringMatching(/^mugshots\/\S+$/), refused: "" },
      { actor: "Owner's script", action: "Made a signed URL", target: named(a), refused: "" },
      { actor: "Owner's script", action: "Uploaded files", target: `5 files: ${shots.slice(0, 3).map(named).join(", ")} and 2 more`, refused: "" },
    ]);
    // Keys by name, members by e-mail, from the team's making on.
    expect(rows).toContainEqual({ actor: "Mission Row Owner", action: "Created an API key", target: "Owner's script", refused: "" });
    expect(rows).toContainEqual({ actor: "Mission Row Owner", action: "Invited a member", target: team.developer.email, refused: "" });
    expect(rows).toContainEqual({ actor: "The developer", action: "Joined the team", target: team.developer.email, refused: "" });

    // The export keeps every file of a bulk change as {id, name}, and what a key call named.
    const entries = await auditExport(server, team.owner);
    const upload = newest(entries, "file.upload")!;
    expect(upload).toMatchObject({ actor_kind: "key", actor: "Owner's script", status: 201, server: "Mission Row RP" });
    expect(upload.detail).toMatchObject({ method: "POST", path: "/api/upload" });
    expect(new Set(upload.detail.files as Uploaded[])).toEqual(new Set(shots));
    const bulk = newest(entries, "file.delete")!;
    expect(bulk.actor_kind).toBe("member");
    expect(new Set(bulk.detail.files as Uploaded[])).toEqual(new Set(rest));
    expect(newest(entries, "file.visibility")!.detail).toEqual({ files: [b], visibility: "private" });
    expect(newest(entries, "case.open")!.detail).toMatchObject({ file_ids: [a.id] });
  });

  test("records refused changes on both sides, names what they asked for, and changes nothing", async ({ server }) => {
    const team = await staffTeam(server, "Sandy Shores");
    const other = await staffTeam(server, "Paleto Bay");
    const [shot] = await uploadWithKey(server, team.key, ["cell-7.png"], [{ field: "case", data: "SS-0001" }]);
    const [theirs] = await uploadWithKey(server, other.key, ["paleto-secret.png"]);
    const devKey = await createKeyAs(server, team.developer, team.serverId, { name: "Dev script", permissions: ["upload", "read"] });
    expect(devKey.status).toBe(201);
    const devSecret = ((await devKey.json()) as { api_key: string }).api_key;
    const caseId = await caseIdOf(server, team, "SS-0001");

    // Key calls: a permission the key lacks, another server's id, another team's file.
    expect((await server.request(`/api/files/${shot!.id}`, { method: "DELETE", headers: { "x-api-key": devSecret } })).status).toBe(403);
    expect((await server.request(`/api/search?server_id=${other.serverId}`, { headers: keyed(team) })).status).toBe(403);
    const probe = await server.request(`/api/files/${theirs!.id}`, { method: "DELETE", headers: keyed(team) });
    expect(probe.status).toBe(404);
    // Members: a file change, a case, the team, a server, a page's form and a cookie API they may not use.
    const refusals: [string, Record<string, string | string[]>, string][] = [
      ["/gallery", { intent: "delete", id: shot!.id }, "Delete media"],
      [`/gallery/${shot!.id}`, { intent: "visibility", visibility: "private" }, "Delete media"],
      ["/cases", { intent: "close", caseId }, "Delete media"],
      ["/team", { intent: "invite", email: "friend@example.com", role: "admin" }, "Manage members"],
      ["/team", { intent: "member-remove", userId: team.developer.user.id }, "Manage members"],
      [`/servers/${team.serverId}`, { intent: "visibility", defaultPublic: "public" }, "Manage servers"],
      ["/api-keys", { intent: "create", name: "Mine", serverId: team.serverId, permissions: "upload", expiresIn: "never" }, "Manage API keys"],
    ];
    for (const [path, fields, permission] of refusals) {
      const res = await postForm(server, path, fields, { cookie: team.member.cookie });
      expect(res.status, path).toBe(403);
      // A form's refusal is its toast; a page the role may not use answers the 403 page that names the permission.
      expect(readToast(res)?.description ?? (await res.text()), path).toContain(permission);
    }
    const checkout = await server.request("/api/billing/create-checkout", { method: "POST", headers: { Cookie: team.developer.cookie, Origin: server.url, "Content-Type": "application/json" }, body: JSON.stringify({ tier: "starter" }) });
    expect(checkout.status).toBe(403);
    // Opening a page one may not use is not recorded: reading changes nothing.
    expect((await server.request("/billing", { headers: { Cookie: team.member.cookie } })).status).toBe(403);
    expect((await server.request("/api-keys", { headers: { Cookie: team.member.cookie } })).status).toBe(403);

    const rows = await auditRows(server, team.owner);
    expect(rows.slice(0, 11)).toEqual([
      { actor: "The developer", action: "Was refused a change", target: "POST /api/billing/create-checkout", refused: "Refused 403" },
      { actor: "The member", action: "Was refused a change", target: "POST /api-keys", refused: "Refused 403" },
      { actor: "The member", action: "Changed a server", target: "Sandy Shores RP", refused: "Refused 403" },
      { actor: "The member", action: "Removed a member", target: team.developer.email, refused: "Refused 403" },
      { actor: "The member", action: "Invited a member", target: "friend@example.com", refused: "Refused 403" },
      { actor: "The member", action: "Closed a case", target: "Case SS-0001", refused: "Refused 403" },
      { actor: "The member", action: "Changed visibility", target: named(shot!), refused: "Refused 403" },
      { actor: "The member", action: "Deleted files", target: named(shot!), refused: "Refused 403" },
      // Another team's file is named by the id the key sent, never by its name.
      { actor: "Owner's script", action: "Deleted files", target: theirs!.id, refused: "Refused 404" },
      { actor: "Owner's script", action: "Searched files", target: "", refused: "Refused 403" },
      { actor: "Dev script", action: "Deleted files", target: shot!.id, refused: "Refused 403" },
    ]);
    const entries = await auditExport(server, team.owner);
    expect(entries.slice(0, 8).map((e) => e.detail)).toEqual([
      { status: 403, refused: true, permission: "manage_billing" },
      { status: 403, refused: true, permission: "manage_keys" },
      { status: 403, refused: true, permission: "manage_servers" },
      { status: 403, refused: true, permission: "manage_members" },
      { status: 403, refused: true, permission: "manage_members" },
      { status: 403, refused: true, permission: "delete_media" },
      { files: [shot], status: 403, refused: true, permission: "delete_media" },
      { files: [shot], status: 403, refused: true, permission: "delete_media" },
    ]);
    expect(entries.slice(0, 8).every((e) => e.status === 403)).toBe(true);
    expect(entries[10]!.detail).toMatchObject({ status: 403, method: "DELETE", path: `/api/files/${shot!.id}`, refused: true, permission: "delete" });
    expect(JSON.stringify(entries)).not.toContain("paleto-secret");
    // The other team's trail has none of it.
    expect((await auditRows(server, other.owner)).filter((r) => r.refused)).toEqual([]);

    // Nothing changed.
    const { db } = server.ctx;
    expect(await db.selectFrom("files").select(["id", "is_public"]).where("id", "in", [shot!.id, theirs!.id]).orderBy("id").execute()).toHaveLength(2);
    expect(await db.selectFrom("files").select("is_public").where("id", "=", shot!.id).executeTakeFirstOrThrow()).toEqual({ is_public: true });
    expect(await db.selectFrom("cases").select("status").where("id", "=", caseId).executeTakeFirstOrThrow()).toEqual({ status: "open" });
    expect(await db.selectFrom("team_invitations").select("id").where("email", "=", "friend@example.com").execute()).toEqual([]);
    expect(await db.selectFrom("team_members").select("user_id").where("team_id", "=", team.id).execute()).toHaveLength(4);
    expect(await db.selectFrom("api_keys").select("name").where("team_id", "=", team.id).where("name", "=", "Mine").execute()).toEqual([]);
  });

  test("filters, pages and exports the trail with each entry's detail, to the team's owners and admins only", async ({ server }) => {
    const team = await staffTeam(server, "Vespucci");
    const [shot] = await uploadWithKey(server, team.key, ["a.png"], [{ field: "category", data: "mugshots" }]);
    expect((await postForm(server, "/gallery", { intent: "visibility", visibility: "private", id: shot!.id }, { cookie: team.owner.cookie })).status).toBe(200);
    expect((await postForm(server, "/gallery", { intent: "delete", id: shot!.id }, { cookie: team.admin.cookie })).status).toBe(200);

    const all = await auditRows(server, team.owner);
    expect(all.slice(0, 3).map((r) => [r.actor, r.action, r.target])).toEqual([
      ["The admin", "Deleted files", named(shot!)],
      ["Vespucci Owner", "Changed visibility", named(shot!)],
      ["Owner's script", "Uploaded files", named(shot!)],
    ]);
    const html = await (await server.request("/audit", { headers: { Cookie: team.owner.cookie } })).text();
    expect(html).toContain("kept 30 days on your plan");
    expect(await auditRows(server, team.owner, "?actor=key")).toEqual([{ actor: "Owner's script", action: "Uploaded files", target: named(shot!), refused: "" }]);
    expect((await auditRows(server, team.owner, "?action=file.delete")).map((r) => r.actor)).toEqual(["The admin"]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await auditRows(server, team.owner, "?to=2020-01-01")).toEqual([]);
    expect(await auditRows(server, team.owner, `?from=${today}&to=${today}`)).toHaveLength(all.length);
    const bad = await server.request("/audit?from=yesterday", { headers: { Cookie: team.owner.cookie } });
    expect(bad.status).toBe(200);
    expect(await bad.text()).toContain("from must be a date (YYYY-MM-DD)");

    const csv = await server.request("/audit/export?format=csv&action=file.visibility", { headers: { Cookie: team.owner.cookie } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="stash-audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("time,actor_kind,actor,action,action_label,target,server,ip,status,detail");
    expect(lines).toHaveLength(2);
    // The detail is JSON text in one quoted cell (its quotes doubled).
    const detail = JSON.stringify({ files: [shot], visibility: "private" }).replaceAll('"', '""');
    expect(lines[1]).toMatch(new RegExp(`^\\d{4}-[^,]*,member,Vespucci Owner,file\\.visibility,Changed visibility,a\\.png \\(${shot!.id}\\),,[^,]*,,"${detail.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"$`));
    const ndjson = await auditExport(server, team.owner, "actor=key");
    expect(ndjson).toEqual([expect.objectContaining({ actor_kind: "key", actor: "Owner's script", action: "file.upload", status: 201, server: "Vespucci RP", target: named(shot!), detail: expect.objectContaining({ files: [shot] }) })]);
    expect((await server.request("/audit/export?from=nope", { headers: { Cookie: team.owner.cookie } })).status).toBe(400);

    // The admin reads it too; a developer, a member and anyone outside the team do not.
    expect(await auditRows(server, team.admin)).toEqual(all);
    for (const who of [team.developer, team.member]) {
      expect((await server.request("/audit", { headers: { Cookie: who.cookie } })).status).toBe(403);
      expect((await server.request("/audit/export?format=csv", { headers: { Cookie: who.cookie } })).status).toBe(403);
    }
    const stranger = await signUpAndSignIn(server);
    expect(await auditRows(server, stranger)).toEqual([]);
    expect((await server.request("/audit/export?format=csv", { headers: { Cookie: stranger.cookie } }).then((r) => r.text())).trim().split("\r\n")).toHaveLength(1);
    expect((await server.request("/audit", { redirect: "manual" })).status).toBe(302);

    // Deleting the server keeps its trail, the deletion included.
    expect((await postForm(server, `/servers/${team.serverId}`, { intent: "delete", confirm: "yes" }, { cookie: team.owner.cookie })).status).toBe(302);
    const after = await auditRows(server, team.owner);
    expect(after[0]).toEqual({ actor: "Vespucci Owner", action: "Deleted a server", target: "Vespucci RP", refused: "" });
    expect(after).toHaveLength(all.length + 1);
  });

  test("records plan changes by an admin and by Stripe once each, and uploads made in the portal", async ({ server }) => {
    const owner = await signUpAndSignIn(server, { displayName: "Owner Vega" });
    const admin = await signUpAndSignIn(server, { displayName: "Admin Kim", role: "admin" });
    // The admin's plan control acts on a person's own team (the first they own).
    expect((await postForm(server, `/admin/users/${owner.user.id}/plan`, { tier: "professional", addon_gb: "0" }, { cookie: admin.cookie })).status).toBe(302);
    // Stripe repeats a subscription's state in several events: one change, one entry.
    await setTeamPlan(server.ctx.db, owner.teamId, { tier: "business", status: "active" });
    await setTeamPlan(server.ctx.db, owner.teamId, { tier: "business", status: "active" });

    const srv = await createServer(server.ctx.db, { teamId: owner.teamId, name: "Vega RP" });
    const uploaded = await server.request(`/api/portal/upload?server_id=${srv.id}`, {
      method: "POST",
      headers: { Cookie: owner.cookie, Origin: server.url },
      body: form([{ field: "file", data: await png(), filename: "a.png", type: "image/png" }]),
    });
    expect(uploaded.status).toBe(201);
    const { id } = (await uploaded.json()) as { id: string };

    expect(await auditRows(server, owner)).toEqual([
      { actor: "Owner Vega", action: "Uploaded files", target: `a.png (${id})`, refused: "" },
      { actor: "Stash", action: "Changed plan", target: "Boss plan", refused: "" },
      { actor: "Admin Kim", action: "Changed plan", target: "Kingpin plan", refused: "" },
    ]);
    expect(await (await server.request("/audit", { headers: { Cookie: owner.cookie } })).text()).toContain("kept 365 days on your plan");
  });

  test("keeps entries as long as the owner's plan says and no longer", async ({ server }) => {
    const free = await createTestUser(server.ctx, { email: `audit-free-${Date.now()}@example.com` });
    const paid = await createTestUser(server.ctx, { email: `audit-paid-${Date.now()}@example.com` });
    await setTeamPlan(server.ctx.db, paid.teamId, { tier: "business" });
    for (const { user, teamId } of [free, paid]) {
      for (const age of [10, 45]) {
        await recordAudit(server.ctx.db, { teamId, actorUserId: user.id, action: "server.update", target: `${age} days old` });
        await server.ctx.db
          .updateTable("audit_logs")
          .set({ created_at: new Date(Date.now() - age * DAY) })
          .where("team_id", "=", teamId)
          .where("target", "=", `${age} days old`)
          .execute();
      }
    }
    await purgeAuditEntries(server.ctx.db);
    const left = async (teamId: TeamId) =>
      (await server.ctx.db.selectFrom("audit_logs").select("target").where("team_id", "=", teamId).where("action", "=", "server.update").orderBy("target").execute()).map((r) => r.target);
    expect(await left(free.teamId)).toEqual(["10 days old"]);
    expect(await left(paid.teamId)).toEqual(["10 days old", "45 days old"]);
  });
});

async function caseIdOf(server: TestServer, team: StaffTeam, number: string) {
  return (await server.ctx.db.selectFrom("cases").select("id").where("server_id", "=", team.serverId).where("number", "=", number).executeTakeFirstOrThrow()).id;
}
