import { describe, expect } from "vitest";
import type { FileId, TeamId } from "../../app/lib/ids.ts";
import { TEAM_PERMISSIONS } from "../../app/lib/team-roles.ts";
import { findPersonalTeam } from "../../app/services/teams/teams.server.ts";
import { postForm, signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { staffTeam, inviteAndJoin } from "../helpers/teams.ts";
import { form, png } from "../helpers/upload-fixtures.ts";

/** A private screenshot uploaded by the team's script, as an MDT would send it. */
async function privateShot(server: TestServer, key: string, name: string) {
  const bytes = await png(96, 54);
  const res = await server.request("/api/upload", {
    method: "POST",
    headers: { "x-api-key": key },
    body: form([{ field: "is_public", data: "false" }, { field: "file", data: bytes, filename: name, type: "image/png" }]),
  });
  expect(res.status).toBe(201);
  return { id: ((await res.json()) as { id: FileId }).id, bytes };
}

const media = (server: TestServer, who: SignedInUser, id: string, query = "") => server.request(`/api/media/${id}${query}`, { headers: { Cookie: who.cookie } });

describe("teams that are nobody's personal team", () => {
  test("a team's id is its own: never its owner's, nor any member's", async ({ server }) => {
    const team = await staffTeam(server, "Vinewood");
    const people = [team.owner, team.admin, team.developer, team.member];
    for (const person of people) {
      expect(person.user.id).not.toBe(team.id);
      // New accounts' own teams get ids of their own too.
      expect(await findPersonalTeam(server.ctx.db, person.user.id)).not.toBe(person.user.id);
      expect(person.teamId).not.toBe(person.user.id);
    }
    const members = await server.ctx.db.selectFrom("team_members").select(["user_id", "role"]).where("team_id", "=", team.id).orderBy("joined_at").execute();
    expect(members.map((m) => m.role)).toEqual(["owner", "admin", "developer", "member"]);
  });

  test("members see their team's private media: view, download, thumbnail", async ({ server }) => {
    const team = await staffTeam(server, "Sandy Shores");
    const { id, bytes } = await privateShot(server, team.key, "cell-block.png");
    for (const who of [team.owner, team.admin, team.developer, team.member]) {
      const view = await media(server, who, id);
      expect(view.status, who.email).toBe(200);
      expect(Buffer.from(await view.arrayBuffer()).equals(bytes)).toBe(true);
      const download = await media(server, who, id, "?download=1");
      expect(download.status).toBe(200);
      expect(download.headers.get("content-disposition")).toContain("attachment");
      expect(download.headers.get("content-disposition")).toContain("cell-block.png");
      const thumb = await media(server, who, id, "?thumb=1");
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get("content-type")).toBe("image/webp");
    }
    // The gallery shows the private card to the member, with the portal URL its Copy URL gives.
    const gallery = await (await server.request("/gallery", { headers: { Cookie: team.member.cookie } })).text();
    expect(gallery).toContain("cell-block.png");
    expect(gallery).toContain(`/api/media/${id}`);

    // A member whose "View media" is taken away sees nothing, and is told why.
    const narrowed = await postForm(server, "/team", { intent: "member-update", userId: team.member.user.id, role: "member", permissions: ["view_logs"] }, { cookie: team.admin.cookie });
    expect(narrowed.status).toBe(200);
    const refused = await media(server, team.member, id);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "permission_denied", error: expect.stringContaining("View media") });
  });

  test("an owner who transferred the team and left no longer reads its private files", async ({ server }) => {
    const team = await staffTeam(server, "Paleto Bay");
    const { id } = await privateShot(server, team.key, "evidence-7.png");
    const seen = await media(server, team.owner, id, "?thumb=1");
    expect(seen.status).toBe(200);
    // The browser may keep the copy but asks before each use: a 304 while the owner may still see it.
    expect(seen.headers.get("cache-control")).toBe("private, no-cache");
    const etag = seen.headers.get("etag")!;
    expect(etag).toBeTruthy();
    const revalidate = (who: typeof team.owner) => server.request(`/api/media/${id}?thumb=1`, { headers: { Cookie: who.cookie, "If-None-Match": etag } });
    expect((await revalidate(team.owner)).status).toBe(304);
    expect((await postForm(server, "/team", { intent: "transfer", userId: team.admin.user.id }, { cookie: team.owner.cookie })).status).toBe(200);
    expect((await postForm(server, "/team", { intent: "leave" }, { cookie: team.owner.cookie })).status).toBe(302);
    // Once they left, asking again is the 404: the copy they kept is not confirmed.
    expect((await revalidate(team.owner)).status).toBe(404);
    expect((await revalidate(team.member)).status).toBe(304);

    for (const query of ["", "?download=1", "?thumb=1"]) {
      const res = await media(server, team.owner, id, query);
      expect(res.status, query).toBe(404);
      const body = await res.text();
      expect(body).not.toContain("evidence-7");
      expect(JSON.parse(body)).toMatchObject({ code: "not_found", error: "File not found" });
    }
    // The new owner and the rest of the staff still do.
    expect((await media(server, team.admin, id)).status).toBe(200);
    expect((await media(server, team.member, id)).status).toBe(200);
  });

  test("a team made before ids were separate (its id is its first owner's) keeps working, and still closes to a former owner", async ({ server }) => {
    // As the teams migration left every account made before it: the personal team took the account's id.
    const founder = await signUpAndSignIn(server, { displayName: "Old Timer" });
    const legacyId = founder.user.id as string as TeamId;
    await server.ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto("teams").values({ id: legacyId, name: "Old Timer's team", owner_user_id: founder.user.id }).execute();
      await trx.insertInto("team_members").values({ team_id: legacyId, user_id: founder.user.id, role: "owner", permissions: [...TEAM_PERMISSIONS] }).execute();
      await trx.insertInto("account_usage").values({ team_id: legacyId }).execute();
      await trx.insertInto("subscriptions").values({ team_id: legacyId }).execute();
    });
    expect((await postForm(server, "/team/switch", { teamId: legacyId }, { cookie: founder.cookie })).status).toBe(302);
    const serverRes = await postForm(server, "/servers", { name: "Legacy RP", description: "", endpointUrl: "", maxFileSizeMb: "50", allowedFileTypes: "png" }, { cookie: founder.cookie });
    expect(serverRes.status).toBe(200);
    const serverId = (await server.ctx.db.selectFrom("servers").select(["id", "team_id"]).where("name", "=", "Legacy RP").executeTakeFirstOrThrow());
    expect(serverId.team_id).toBe(legacyId);
    const keyRes = await server.request("/api/keys", {
      method: "POST",
      headers: { Cookie: founder.cookie, Origin: server.url, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "legacy", server_id: serverId.id, permissions: ["upload", "read"] }),
    });
    expect(keyRes.status).toBe(201);
    const { id } = await privateShot(server, ((await keyRes.json()) as { api_key: string }).api_key, "old-case.png");
    const heir = await inviteAndJoin(server, founder, "admin");
    expect((await media(server, heir, id)).status).toBe(200);

    // The founder hands the team on and leaves: their id is still the team's id, and it opens nothing.
    expect((await postForm(server, "/team", { intent: "transfer", userId: heir.user.id }, { cookie: founder.cookie })).status).toBe(200);
    expect((await postForm(server, "/team", { intent: "leave" }, { cookie: founder.cookie })).status).toBe(302);
    for (const query of ["", "?download=1"]) expect((await media(server, founder, id, query)).status).toBe(404);
    expect((await media(server, heir, id)).status).toBe(200);
  });
});
