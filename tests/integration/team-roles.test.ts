import { describe, expect } from "vitest";
import { postForm, readToast, type SignedInUser } from "../helpers/auth.ts";
import { auditExport, auditRows as trail } from "../helpers/audit.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { createKeyAs, staffTeam, type StaffTeam } from "../helpers/teams.ts";
import { form, png } from "../helpers/upload-fixtures.ts";

/** The audit trail's rows as the owner reads them on /audit: actor, action, target. */
async function auditRows(server: TestServer, who: SignedInUser) {
  return (await trail(server, who)).map((row) => [row.actor, row.action, row.target, ...(row.refused ? [row.refused] : [])]);
}

/** An evidence case opened by the team's MDT with one private upload. */
async function openCaseWithEvidence(server: TestServer, team: StaffTeam, number: string) {
  const res = await server.request("/api/upload", {
    method: "POST",
    headers: { "x-api-key": team.key },
    body: form([{ field: "case", data: number }, { field: "is_public", data: "false" }, { field: "file", data: await png(30, 20), filename: `${number}.png`, type: "image/png" }]),
  });
  expect(res.status).toBe(201);
  return server.ctx.db.selectFrom("cases").select(["id", "status"]).where("server_id", "=", team.serverId).where("number", "=", number).executeTakeFirstOrThrow();
}

const caseStatus = (server: TestServer, id: string) => server.ctx.db.selectFrom("cases").select("status").where("id", "=", id as never).executeTakeFirstOrThrow();

describe("roles in a staff team", () => {
  test("closing or reopening a case needs \"delete media\", as deleting does; it is on the audit trail", async ({ server }) => {
    const team = await staffTeam(server, "Davis");
    const evidence = await openCaseWithEvidence(server, team, "XT-0020");
    const page = (who: SignedInUser) => server.request("/cases", { headers: { Cookie: who.cookie } }).then((r) => r.text());

    for (const who of [team.member, team.developer]) {
      expect(await page(who)).toContain("XT-0020");
      expect(await page(who)).not.toContain("Close case");
      const refused = await postForm(server, "/cases", { intent: "close", caseId: evidence.id }, { cookie: who.cookie });
      expect(refused.status).toBe(403);
      expect(readToast(refused)?.description).toContain("Delete media");
      expect(await caseStatus(server, evidence.id)).toEqual({ status: "open" });
    }
    expect(await page(team.admin)).toContain("Close case");
    const closed = await postForm(server, "/cases", { intent: "close", caseId: evidence.id }, { cookie: team.admin.cookie });
    expect(closed.status).toBe(200);
    expect(await caseStatus(server, evidence.id)).toEqual({ status: "closed" });
    expect((await postForm(server, "/cases", { intent: "reopen", caseId: evidence.id }, { cookie: team.member.cookie })).status).toBe(403);
    expect(await caseStatus(server, evidence.id)).toEqual({ status: "closed" });
    expect((await postForm(server, "/cases", { intent: "reopen", caseId: evidence.id }, { cookie: team.owner.cookie })).status).toBe(200);

    const trail = await auditRows(server, team.owner);
    expect(trail).toContainEqual(["The admin", "Closed a case", "Case XT-0020"]);
    expect(trail).toContainEqual([`${team.name} Owner`, "Reopened a case", "Case XT-0020"]);
    // The refusals are there too, as the action each member tried.
    expect(trail.filter((row) => row[3])).toEqual([
      ["The member", "Reopened a case", "Case XT-0020", "Refused 403"],
      ["The developer", "Closed a case", "Case XT-0020", "Refused 403"],
      ["The member", "Closed a case", "Case XT-0020", "Refused 403"],
    ]);
  });

  test("a key can carry only the permissions of the member who makes or regenerates it", async ({ server }) => {
    const team = await staffTeam(server, "Chumash");
    const keysOf = async () => (await server.ctx.db.selectFrom("api_keys").select(["name", "permissions", "key_prefix"]).where("team_id", "=", team.id).orderBy("created_at").execute());
    const before = await keysOf();

    // "Manage keys" is not every permission: the developer holds no "Delete media".
    const refused = await createKeyAs(server, team.developer, team.serverId, { name: "Wipe script", permissions: ["upload", "read", "delete"] });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "permission_denied", permission: "delete", requires: "delete_media", error: expect.stringContaining('"Delete media"') });
    const viaForm = await postForm(server, "/api-keys", { intent: "create", name: "Wipe script", serverId: team.serverId, permissions: ["upload", "delete"], expiresIn: "never" }, { cookie: team.developer.cookie });
    expect(viaForm.status).toBe(403);
    expect(readToast(viaForm)?.description).toContain('"Delete media"');
    expect(await keysOf()).toEqual(before);

    // What the developer may do, a key of theirs may do.
    const allowed = await createKeyAs(server, team.developer, team.serverId, { name: "Dev script", permissions: ["upload", "read", "logs:write"] });
    expect(allowed.status).toBe(201);
    const devKey = (await allowed.json()) as { api_key: string; data: { id: string } };
    // Nor can they widen it later, or take a new secret of the owner's delete-capable key.
    const widened = await server.request(`/api/keys/${devKey.data.id}`, { method: "PUT", headers: { Cookie: team.developer.cookie, Origin: server.url, "Content-Type": "application/json" }, body: JSON.stringify({ permissions: ["read", "delete"] }) });
    expect(widened.status).toBe(403);
    const ownersKey = before.find((k) => k.name === "Owner's script")!;
    const ownersKeyId = (await server.ctx.db.selectFrom("api_keys").select("id").where("team_id", "=", team.id).where("name", "=", "Owner's script").executeTakeFirstOrThrow()).id;
    const regenerate = await server.request("/api/keys", { method: "POST", headers: { Cookie: team.developer.cookie, Origin: server.url, "Content-Type": "application/json" }, body: JSON.stringify({ key_id: ownersKeyId, operation: "regenerate" }) });
    expect(regenerate.status).toBe(403);
    expect((await postForm(server, "/api-keys", { intent: "regenerate", keyId: ownersKeyId }, { cookie: team.developer.cookie })).status).toBe(403);
    expect((await keysOf()).find((k) => k.name === "Owner's script")).toEqual(ownersKey);
    expect((await server.request("/api/search", { headers: { "x-api-key": team.key } })).status).toBe(200);
    // Each refusal is on the trail: the key the developer tried to make, widen or take, by name.
    expect((await auditRows(server, team.owner)).filter((row) => row[3])).toEqual([
      ["The developer", "Regenerated an API key", "Owner's script", "Refused 403"],
      ["The developer", "Regenerated an API key", "Owner's script", "Refused 403"],
      ["The developer", "Changed an API key", "Dev script", "Refused 403"],
      ["The developer", "Created an API key", "Wipe script", "Refused 403"],
      ["The developer", "Created an API key", "Wipe script", "Refused 403"],
    ]);
    expect((await auditExport(server, team.owner, "action=key.update"))[0]!.detail).toEqual({ key_permission: "delete", status: 403, refused: true, permission: "delete_media" });

    // So the developer's key cannot delete the team's files through the script API.
    const shot = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": devKey.api_key }, body: form([{ field: "file", data: await png(20, 20), filename: "a.png", type: "image/png" }]) });
    expect(shot.status).toBe(201);
    const { id } = (await shot.json()) as { id: string };
    expect((await server.request(`/api/files/${id}`, { method: "DELETE", headers: { "x-api-key": devKey.api_key } })).status).toBe(403);

    // The key page offers only what the developer may give, and says why.
    const page = (await (await server.request("/api-keys", { headers: { Cookie: team.developer.cookie } })).text()).replace(/<!-- -->/g, "").replace(/&quot;/g, "\"");
    expect(page).toMatch(/<input type="checkbox" disabled=""[^>]*value="delete"\/>/);
    expect(page).toContain('Delete needs "Delete media"');

    // A member given "Manage keys" alone may make no key at all that reads, writes or logs.
    expect((await postForm(server, "/team", { intent: "member-update", userId: team.member.user.id, role: "member", permissions: ["manage_keys"] }, { cookie: team.owner.cookie })).status).toBe(200);
    for (const [permission, requires] of [["upload", "view_media"], ["read", "view_media"], ["logs:write", "view_logs"]] as const) {
      const res = await createKeyAs(server, team.member, team.serverId, { name: "x", permissions: [permission] });
      expect(res.status, permission).toBe(403);
      expect(await res.json()).toMatchObject({ permission, requires });
    }
    // Granted "Delete media", the developer may give it.
    expect((await postForm(server, "/team", { intent: "member-update", userId: team.developer.user.id, role: "developer", permissions: ["view_media", "delete_media", "manage_keys"] }, { cookie: team.owner.cookie })).status).toBe(200);
    expect((await createKeyAs(server, team.developer, team.serverId, { name: "Cleanup", permissions: ["read", "delete"] })).status).toBe(201);
  });
});
