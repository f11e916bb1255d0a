/**
 * Teams as staffs run them. Every team here is made on /team by its owner, so it is nobody's
 * personal team and its id is no person's id (createTeamAs checks): code that confused a person's
 * id with a team's would fail here, as it did for invited members before issue 34.
 */
import { describe, expect } from "vitest";
import { postForm, readToast, signUpAndSignIn, uniqueEmail, type SignedInUser } from "../helpers/auth.ts";
import { auditRows as trail } from "../helpers/audit.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { createKeyAs, createServerAs, createTeamAs, invitationIdOf, invitationLink, inviteAndJoin } from "../helpers/teams.ts";
import { form, png } from "../helpers/upload-fixtures.ts";
import type { FileId } from "../../app/lib/ids.ts";

/** Who did what, newest first, as the owner reads /audit. */
async function auditRows(server: TestServer, who: SignedInUser) {
  return (await trail(server, who)).map((row) => [row.actor, row.action, ...(row.refused ? [row.refused] : [])]);
}

describe("teams", () => {
  test("an invited developer manages keys in the owner's team but not billing, and the audit log names each actor", async ({ server }) => {
    const owner = await signUpAndSignIn(server, { displayName: "Chief Ramos" });
    await createTeamAs(server, owner, "Mission Row PD");
    const serverId = await createServerAs(server, owner, "Mission Row RP");
    const developer = await inviteAndJoin(server, owner, "developer");

    // The invitation switched the developer's session to the owner's team: its servers are theirs to see.
    const servers = await (await server.request("/servers", { headers: { Cookie: developer.cookie } })).text();
    expect(servers).toContain("Mission Row RP");
    const key = await createKeyAs(server, developer, serverId);
    expect(key.status).toBe(201);
    expect((await server.request("/api-keys", { headers: { Cookie: developer.cookie } })).status).toBe(200);

    // Billing is not theirs: the page is a 403, the checkout endpoint a JSON 403, and the plan is unchanged.
    const billing = await server.request("/billing", { headers: { Cookie: developer.cookie } });
    expect(billing.status).toBe(403);
    expect(await billing.text()).toContain("Manage billing");
    const checkout = await server.request("/api/billing/create-checkout", {
      method: "POST",
      headers: { Cookie: developer.cookie, Origin: server.url, "Content-Type": "application/json" },
      body: JSON.stringify({ tier: "starter" }),
    });
    expect(checkout.status).toBe(403);
    expect(await checkout.json()).toMatchObject({ code: "permission_denied" });
    // The audit log is for owners and admins; the developer's sidebar does not offer it.
    expect((await server.request("/audit", { headers: { Cookie: developer.cookie } })).status).toBe(403);

    expect(await auditRows(server, owner)).toEqual([
      ["The developer", "Was refused a change", "Refused 403"],
      ["The developer", "Created an API key"],
      ["The developer", "Joined the team"],
      ["Chief Ramos", "Invited a member"],
      ["Chief Ramos", "Created a server"],
      ["Chief Ramos", "Created a team"],
    ]);
    // The developer's own team is still theirs, empty, one switch away.
    const own = await server.ctx.db.selectFrom("teams").select("id").where("owner_user_id", "=", developer.user.id).executeTakeFirstOrThrow();
    const switched = await postForm(server, "/team/switch", { teamId: own.id }, { cookie: developer.cookie });
    expect(switched.status).toBe(302);
    expect(await (await server.request("/servers", { headers: { Cookie: developer.cookie } })).text()).not.toContain("Mission Row RP");
    expect((await server.request("/billing", { headers: { Cookie: developer.cookie } })).status).toBe(200);
    // A team they do not belong to cannot be switched to.
    const foreign = await signUpAndSignIn(server);
    expect((await postForm(server, "/team/switch", { teamId: foreign.teamId }, { cookie: developer.cookie })).status).toBe(404);
  });

  test("a member without delete permission sees no delete controls and is refused; the file stays", async ({ server }) => {
    const owner = await signUpAndSignIn(server, { displayName: "Owner Two" });
    await createTeamAs(server, owner, "Paleto Sheriffs");
    const serverId = await createServerAs(server, owner, "Paleto RP");
    const secret = ((await (await createKeyAs(server, owner, serverId)).json()) as { api_key: string }).api_key;
    const uploaded = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": secret }, body: form([{ field: "file", data: await png(), filename: "a.png", type: "image/png" }]) });
    expect(uploaded.status).toBe(201);
    const fileId = ((await uploaded.json()) as { id: FileId }).id;
    const member = await inviteAndJoin(server, owner, "member");

    const gallery = await (await server.request("/gallery", { headers: { Cookie: member.cookie } })).text();
    expect(gallery).toContain("a.png");
    const detail = await (await server.request(`/gallery/${fileId}`, { headers: { Cookie: member.cookie } })).text();
    expect(detail).toContain("can view this file but not change or delete it");
    expect(detail).not.toContain("Delete file");
    const ownerDetail = await (await server.request(`/gallery/${fileId}`, { headers: { Cookie: owner.cookie } })).text();
    expect(ownerDetail).toContain("Delete file");
    // Names every object answers to are no action, on the file's page as in the gallery.
    for (const intent of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      for (const path of [`/gallery/${fileId}`, "/gallery"]) {
        const odd = await postForm(server, path, { intent, id: fileId }, { cookie: owner.cookie });
        expect(odd.status, `${path} ${intent}`).toBe(400);
        expect(readToast(odd)?.description, `${path} ${intent}`).toBe("Unknown action");
      }
    }

    const refused = await postForm(server, "/gallery", { intent: "delete", id: fileId }, { cookie: member.cookie });
    expect(refused.status).toBe(403);
    expect(readToast(refused)?.description).toContain("Delete media");
    expect((await postForm(server, `/gallery/${fileId}`, { intent: "delete" }, { cookie: member.cookie })).status).toBe(403);
    expect((await postForm(server, "/gallery", { intent: "visibility", visibility: "private", id: fileId }, { cookie: member.cookie })).status).toBe(403);
    const keys = await server.request("/api/keys", { headers: { Cookie: member.cookie } });
    expect(keys.status).toBe(403);
    const file = await server.ctx.db.selectFrom("files").select(["id", "is_public"]).where("id", "=", fileId).executeTakeFirst();
    expect(file).toEqual({ id: fileId, is_public: true });

    // An admin grants the permission: the same request now deletes the file.
    const granted = await postForm(
      server,
      "/team",
      { intent: "member-update", userId: member.user.id, role: "member", permissions: ["view_media", "delete_media"] },
      { cookie: owner.cookie },
    );
    expect(granted.status).toBe(200);
    expect((await postForm(server, "/gallery", { intent: "delete", id: fileId }, { cookie: member.cookie })).status).toBe(200);
    expect(await server.ctx.db.selectFrom("files").select("id").where("id", "=", fileId).executeTakeFirst()).toBeUndefined();
    expect((await auditRows(server, owner)).slice(0, 5)).toEqual([
      ["The member", "Deleted files"],
      ["Owner Two", "Changed a member's access"],
      ["The member", "Changed visibility", "Refused 403"],
      ["The member", "Deleted files", "Refused 403"],
      ["The member", "Deleted files", "Refused 403"],
    ]);
  });

  test("invitations: one address, revocable, expiring, and only the invited account may answer", async ({ server }) => {
    const owner = await signUpAndSignIn(server, { displayName: "Owner Three" });
    const teamId = await createTeamAs(server, owner, "Sandy Rangers");
    const email = uniqueEmail("invitee");
    expect((await postForm(server, "/team", { intent: "invite", email: "not-an-address", role: "member" }, { cookie: owner.cookie })).status).toBe(400);
    expect((await postForm(server, "/team", { intent: "invite", email, role: "owner" }, { cookie: owner.cookie })).status).toBe(400);
    expect((await postForm(server, "/team", { intent: "invite", email: owner.email, role: "member" }, { cookie: owner.cookie })).status).toBe(400);
    expect(await server.ctx.db.selectFrom("team_invitations").select("id").where("team_id", "=", teamId).execute()).toEqual([]);

    expect((await postForm(server, "/team", { intent: "invite", email, role: "admin" }, { cookie: owner.cookie })).status).toBe(200);
    const link = await invitationLink(server, email);
    const someoneElse = await signUpAndSignIn(server);
    const wrong = await server.request(link, { headers: { Cookie: someoneElse.cookie } });
    expect((await wrong.text()).replace(/<!-- -->/g, "")).toContain(`This invitation is for ${email}, but you are signed in as ${someoneElse.email}`);
    const stolen = await postForm(server, link, { invitationId: await invitationIdOf(server, email), answer: "accept" }, { cookie: someoneElse.cookie });
    expect(stolen.status).toBe(404);
    expect(await server.ctx.db.selectFrom("team_members").select("user_id").where("team_id", "=", teamId).execute()).toHaveLength(1);

    // A visitor sees whose invitation it is and is sent to sign in.
    const anonymous = await (await server.request(link)).text();
    expect(anonymous).toContain("Sign in to answer");

    // Revoked: the link says so and accepting is refused.
    const pending = await (await server.request("/team", { headers: { Cookie: owner.cookie } })).text();
    expect(pending).toContain(email);
    expect((await postForm(server, "/team", { intent: "revoke", invitationId: await invitationIdOf(server, email) }, { cookie: owner.cookie })).status).toBe(200);
    const invitee = await signUpAndSignIn(server, { email });
    expect(await (await server.request(link, { headers: { Cookie: invitee.cookie } })).text()).toContain("revoked by the team");
    expect((await postForm(server, link, { invitationId: await invitationIdOf(server, email), answer: "accept" }, { cookie: invitee.cookie })).status).toBe(400);

    // Expired: a new invitation past its 7 days.
    expect((await postForm(server, "/team", { intent: "invite", email, role: "member" }, { cookie: owner.cookie })).status).toBe(200);
    const second = await invitationLink(server, email);
    expect(second).not.toBe(link);
    await server.ctx.db.updateTable("team_invitations").set({ expires_at: new Date(Date.now() - 1000) }).where("email", "=", email).where("status", "=", "pending").execute();
    expect(await (await server.request(second, { headers: { Cookie: invitee.cookie } })).text()).toContain("has expired");
    expect((await postForm(server, second, { invitationId: await invitationIdOf(server, email), answer: "accept" }, { cookie: invitee.cookie })).status).toBe(400);

    // Declined: answered once, no membership.
    expect((await postForm(server, "/team", { intent: "invite", email, role: "member" }, { cookie: owner.cookie })).status).toBe(200);
    const third = await invitationLink(server, email);
    expect((await postForm(server, third, { invitationId: await invitationIdOf(server, email), answer: "decline" }, { cookie: invitee.cookie })).status).toBe(200);
    expect((await postForm(server, third, { invitationId: await invitationIdOf(server, email), answer: "accept" }, { cookie: invitee.cookie })).status).toBe(400);
    expect(await server.ctx.db.selectFrom("team_members").select("user_id").where("team_id", "=", teamId).execute()).toHaveLength(1);
  });

  test("ownership moves to another member, the old owner stays as admin, and a member can leave", async ({ server }) => {
    const owner = await signUpAndSignIn(server, { displayName: "Founder" });
    const teamId = await createTeamAs(server, owner, "Founders");
    const admin = await inviteAndJoin(server, owner, "admin");
    const member = await inviteAndJoin(server, owner, "member");
    // Only the owner transfers; the owner cannot leave or be removed.
    expect((await postForm(server, "/team", { intent: "transfer", userId: member.user.id }, { cookie: admin.cookie })).status).toBe(403);
    expect((await postForm(server, "/team", { intent: "leave" }, { cookie: owner.cookie })).status).toBe(403);
    expect((await postForm(server, "/team", { intent: "member-remove", userId: owner.user.id }, { cookie: admin.cookie })).status).toBe(403);

    expect((await postForm(server, "/team", { intent: "transfer", userId: admin.user.id }, { cookie: owner.cookie })).status).toBe(200);
    const roles = await server.ctx.db.selectFrom("team_members").select(["user_id", "role"]).where("team_id", "=", teamId).execute();
    expect(Object.fromEntries(roles.map((r) => [r.user_id, r.role]))).toEqual({ [owner.user.id]: "admin", [admin.user.id]: "owner", [member.user.id]: "member" });
    expect((await server.ctx.db.selectFrom("teams").select("owner_user_id").where("id", "=", teamId).executeTakeFirstOrThrow()).owner_user_id).toBe(admin.user.id);

    const left = await postForm(server, "/team", { intent: "leave" }, { cookie: member.cookie });
    expect(left.status).toBe(302);
    expect(await server.ctx.db.selectFrom("team_members").select("user_id").where("team_id", "=", teamId).where("user_id", "=", member.user.id).execute()).toEqual([]);
    // Back in their own team; the old one cannot be switched to any more.
    expect((await postForm(server, "/team/switch", { teamId }, { cookie: member.cookie })).status).toBe(404);
    // The new owner removes the old one.
    expect((await postForm(server, "/team", { intent: "member-remove", userId: owner.user.id }, { cookie: admin.cookie })).status).toBe(200);
    expect(await auditRows(server, admin)).toEqual(
      expect.arrayContaining([
        ["The admin", "Removed a member"],
        ["The member", "Left the team"],
        ["Founder", "Transferred ownership"],
        // The refusals before, on the trail too.
        ["The admin", "Removed a member", "Refused 403"],
        ["Founder", "Left the team", "Refused 403"],
        ["The admin", "Transferred ownership", "Refused 403"],
      ]),
    );
  });

  test("an admin sees every team with its owner, members and plan", async ({ server }) => {
    const admin = await signUpAndSignIn(server, { role: "admin", displayName: "Site Admin" });
    const owner = await signUpAndSignIn(server, { displayName: "Team Owner" });
    await createTeamAs(server, owner, "Grapeseed Crew");
    await inviteAndJoin(server, owner, "member");
    const html = (await (await server.request("/admin/teams", { headers: { Cookie: admin.cookie } })).text()).replace(/<!-- -->/g, "");
    const row = html.split('data-testid="admin-team-row"').find((r) => r.includes("Grapeseed Crew"));
    expect(row).toContain("Owner Team Owner");
    expect(row).toContain("2 members");
    expect((await server.request("/admin/teams", { headers: { Cookie: owner.cookie }, redirect: "manual" })).status).toBe(302);
  });

  test("a case restricted to some members is hidden from the others until it is opened to the team", async ({ server }) => {
    const owner = await signUpAndSignIn(server, { displayName: "Captain Price" });
    await createTeamAs(server, owner, "Vespucci PD");
    const serverId = await createServerAs(server, owner, "Vespucci RP");
    const detective = await inviteAndJoin(server, owner, "developer");
    const cadet = await inviteAndJoin(server, owner, "member");
    const opened = await postForm(server, "/cases", { intent: "open", serverId, number: "IA-7", title: "Internal affairs", notes: "", members: [detective.user.id] }, { cookie: owner.cookie });
    expect(opened.status).toBe(200);
    const caseId = (await server.ctx.db.selectFrom("cases").select("id").where("number", "=", "IA-7").executeTakeFirstOrThrow()).id;
    const casesOf = async (who: SignedInUser) => (await (await server.request("/cases", { headers: { Cookie: who.cookie } })).text()).replace(/<!-- -->/g, "");

    expect(await casesOf(owner)).toContain("IA-7 · Internal affairs");
    expect(await casesOf(owner)).toContain("Restricted to 1 member");
    expect(await casesOf(detective)).toContain("IA-7 · Internal affairs");
    expect(await casesOf(cadet)).not.toContain("IA-7");
    expect((await server.request(`/cases/${caseId}/export.zip`, { headers: { Cookie: cadet.cookie } })).status).toBe(404);
    expect((await postForm(server, "/cases", { intent: "close", caseId }, { cookie: cadet.cookie })).status).toBe(404);
    // Only owners and admins choose who sees a case.
    expect((await postForm(server, "/cases", { intent: "members", caseId, members: [cadet.user.id] }, { cookie: detective.cookie })).status).toBe(403);
    // Someone outside the team cannot be given access.
    const stranger = await signUpAndSignIn(server);
    expect((await postForm(server, "/cases", { intent: "members", caseId, members: [stranger.user.id] }, { cookie: owner.cookie })).status).toBe(400);
    expect(await server.ctx.db.selectFrom("case_members").select("user_id").where("case_id", "=", caseId).execute()).toEqual([{ user_id: detective.user.id }]);

    expect((await postForm(server, "/cases", { intent: "members", caseId }, { cookie: owner.cookie })).status).toBe(200);
    expect(await casesOf(cadet)).toContain("IA-7 · Internal affairs");
    expect((await auditRows(server, owner)).slice(0, 2)).toEqual([
      ["Captain Price", "Changed who sees a case"],
      ["The developer", "Changed who sees a case", "Refused 403"],
    ]);
  });

  test("ids that are not ids are refused with 4xx and change nothing", async ({ server }) => {
    const owner = await signUpAndSignIn(server, { displayName: "Careful Owner" });
    const teamId = await createTeamAs(server, owner, "Careful Crew");
    const serverId = await createServerAs(server, owner, "Ids RP");
    const member = await inviteAndJoin(server, owner, "member");
    const before = await server.ctx.db.selectFrom("team_members").select(["user_id", "role"]).where("team_id", "=", teamId).orderBy("user_id").execute();
    const teamRow = () => server.ctx.db.selectFrom("teams").select(["name", "owner_user_id"]).where("id", "=", teamId).executeTakeFirstOrThrow();
    const teamBefore = await teamRow();
    // Names every object answers to are no intent: a 400 that says so, for the owner and a member alike.
    for (const who of [owner, member]) {
      for (const intent of ["constructor", "toString", "__proto__", "valueOf"]) {
        const res = await postForm(server, "/team", { intent, name: "Hijacked", userId: member.user.id, answer: "accept" }, { cookie: who.cookie });
        expect(res.status, intent).toBe(400);
        expect(readToast(res), intent).toMatchObject({ type: "error", description: "Unknown action." });
      }
    }
    expect(await teamRow()).toEqual(teamBefore);
    expect((await postForm(server, "/team/switch", { teamId: "not-a-uuid" }, { cookie: member.cookie })).status).toBe(404);
    for (const intent of ["member-remove", "member-update", "transfer"]) {
      const res = await postForm(server, "/team", { intent, userId: "not-a-uuid", role: "member" }, { cookie: owner.cookie });
      expect(res.status, intent).toBe(404);
    }
    expect((await postForm(server, "/team", { intent: "revoke", invitationId: "not-a-uuid" }, { cookie: owner.cookie })).status).toBe(404);
    expect((await postForm(server, "/invitations/abcdefghijklmnopqrstuvwxyz", { invitationId: "not-a-uuid", answer: "accept" }, { cookie: member.cookie })).status).toBe(404);
    expect((await postForm(server, "/cases", { intent: "open", serverId, number: "IDS-1", title: "", notes: "", members: ["not-a-uuid"] }, { cookie: owner.cookie })).status).toBe(400);
    expect(await server.ctx.db.selectFrom("cases").select("id").where("server_id", "=", serverId).execute()).toEqual([]);
    expect(await server.ctx.db.selectFrom("team_members").select(["user_id", "role"]).where("team_id", "=", teamId).orderBy("user_id").execute()).toEqual(before);
  });
});
