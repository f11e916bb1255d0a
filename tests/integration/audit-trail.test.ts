import { describe, expect } from "vitest";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { setTeamPlan } from "../../app/services/billing/subscriptions.server.ts";
import { purgeAuditEntries, recordAudit } from "../../app/services/platform/audit-trail.server.ts";
import { createTestUser, postForm, signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, png } from "../helpers/upload-fixtures.ts";
import type { TeamId } from "../../app/lib/ids.ts";

const DAY = 86_400_000;

async function page(server: TestServer, who: SignedInUser, query = "") {
  const res = await server.request(`/audit${query}`, { headers: { Cookie: who.cookie } });
  const html = (await res.text()).replace(/<!-- -->/g, "");
  const rows = [...html.matchAll(/data-testid="audit-row"[\s\S]*?data-testid="audit-actor">([^<]*)<[\s\S]*?data-testid="audit-action">([^<]*)</g)].map((m) => [m[1], m[2]]);
  return { status: res.status, html, rows };
}

describe("audit log", () => {
  test("records portal changes with the person, key calls with the key, filters them and exports them", async ({ server }) => {
    const owner = await signUpAndSignIn(server, { displayName: "Chief Ramos" });
    // A server and a key made through the portal's own forms, as an owner makes them.
    const created = await postForm(server, "/servers", { name: "Mission Row RP", description: "", endpointUrl: "", maxFileSizeMb: "50", allowedFileTypes: "png" }, { cookie: owner.cookie });
    expect(created.status).toBe(200);
    const serverId = (await server.ctx.db.selectFrom("servers").select("id").where("team_id", "=", owner.teamId).executeTakeFirstOrThrow()).id;
    const key = await server.request("/api/keys", {
      method: "POST",
      headers: { Cookie: owner.cookie, Origin: server.url, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "MDT script", server_id: serverId }),
    });
    expect(key.status).toBe(201);
    const secret = ((await key.json()) as { api_key: string }).api_key;

    const uploaded = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": secret }, body: form([{ field: "category", data: "mugshots" }, { field: "file", data: await png(), filename: "a.png", type: "image/png" }]) });
    expect(uploaded.status).toBe(201);
    const fileId = (await uploaded.json()).id as string;
    expect((await postForm(server, "/gallery", { intent: "visibility", visibility: "private", id: fileId }, { cookie: owner.cookie })).status).toBe(200);
    expect((await postForm(server, "/gallery", { intent: "delete", id: fileId }, { cookie: owner.cookie })).status).toBe(200);
    await server.flushUsage();

    const all = await page(server, owner);
    expect(all.status).toBe(200);
    expect(all.html).toContain("kept 30 days on your plan");
    expect(all.rows).toEqual([
      ["Chief Ramos", "Deleted files"],
      ["Chief Ramos", "Changed visibility"],
      ["MDT script", "Uploaded files"],
      ["Chief Ramos", "Created an API key"],
      ["Chief Ramos", "Created a server"],
    ]);
    expect(all.html).toContain(" · MDT script");
    expect(all.html).toContain(" · 1 file");

    expect((await page(server, owner, "?actor=key")).rows).toEqual([["MDT script", "Uploaded files"]]);
    expect((await page(server, owner, "?action=file.delete")).rows).toEqual([["Chief Ramos", "Deleted files"]]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await page(server, owner, `?to=2020-01-01`)).rows).toEqual([]);
    expect((await page(server, owner, `?from=${today}&to=${today}`)).rows).toHaveLength(5);
    const bad = await page(server, owner, "?from=yesterday");
    expect(bad.status).toBe(200);
    expect(bad.html).toContain("from must be a date (YYYY-MM-DD)");

    const csv = await server.request("/audit/export?format=csv&actor=member", { headers: { Cookie: owner.cookie } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="stash-audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("time,actor_kind,actor,action,action_label,target,server,ip,status");
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^\d{4}-[^,]*,member,Chief Ramos,file\.delete,Deleted files,1 file,,/);
    const ndjson = await server.request("/audit/export?format=ndjson&actor=key", { headers: { Cookie: owner.cookie } });
    const objects = (await ndjson.text()).trim().split("\n").map((line) => JSON.parse(line));
    expect(objects).toEqual([expect.objectContaining({ actor_kind: "key", actor: "MDT script", action: "file.upload", status: 201, server: "Mission Row RP" })]);
    expect((await server.request("/audit/export?from=nope", { headers: { Cookie: owner.cookie } })).status).toBe(400);

    // Nobody else sees it, and the page needs a session.
    const stranger = await signUpAndSignIn(server);
    expect((await page(server, stranger)).rows).toEqual([]);
    expect((await server.request("/audit/export?format=csv", { headers: { Cookie: stranger.cookie } }).then((r) => r.text())).trim().split("\r\n")).toHaveLength(1);
    expect((await server.request("/audit", { redirect: "manual" })).status).toBe(302);

    // Deleting the server keeps its trail, the deletion included.
    expect((await postForm(server, `/servers/${serverId}`, { intent: "delete", confirm: "yes" }, { cookie: owner.cookie })).status).toBe(302);
    const after = await page(server, owner);
    expect(after.rows[0]).toEqual(["Chief Ramos", "Deleted a server"]);
    expect(after.rows).toHaveLength(6);
  });

  test("records plan changes by an admin and by Stripe once each, and uploads made in the portal", async ({ server }) => {
    const owner = await signUpAndSignIn(server, { displayName: "Owner Vega" });
    const admin = await signUpAndSignIn(server, { displayName: "Admin Kim", role: "admin" });
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

    const trail = await page(server, owner);
    expect(trail.status, trail.html.slice(0, 2000)).toBe(200);
    expect(trail.rows).toEqual([
      ["Owner Vega", "Uploaded files"],
      ["Stash", "Changed plan"],
      ["Admin Kim", "Changed plan"],
    ]);
    expect(trail.html).toContain(" · Boss plan");
    expect(trail.html).toContain(" · Kingpin plan");
    expect(trail.html).toContain("kept 365 days on your plan");
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
