/**
 * Two staff teams probing each other's ids on every endpoint that takes one: each answer is a 404 (or
 * whatever a made-up id of the same shape gets), says nothing of the other team's file, case, key,
 * member or server, and changes nothing.
 */
import { randomUUID } from "node:crypto";
import { describe, expect } from "vitest";
import type { ApiKeyId, CaseId, FileId } from "../../app/lib/ids.ts";
import { postForm, readToast, type SignedInUser } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { createKeyAs, staffTeam, type StaffTeam } from "../helpers/teams.ts";
import { form, png } from "../helpers/upload-fixtures.ts";

/** What a team holds that another might name: a private file in open case XT-0020, its key, a saved search, a log dataset. */
interface Holdings {
  team: StaffTeam;
  fileId: FileId;
  fileName: string;
  caseId: CaseId;
  caseNumber: string;
  keyId: ApiKeyId;
  keyName: string;
  queryId: string;
  datasetId: string;
}

async function holdings(server: TestServer, name: string, caseNumber: string): Promise<Holdings> {
  const team = await staffTeam(server, name);
  const fileName = `${name.toLowerCase()}-evidence.png`;
  const uploaded = await server.request("/api/upload", {
    method: "POST",
    headers: { "x-api-key": team.key },
    body: form([{ field: "is_public", data: "false" }, { field: "case", data: caseNumber }, { field: "file", data: await png(40, 30), filename: fileName, type: "image/png" }]),
  });
  expect(uploaded.status).toBe(201);
  const fileId = ((await uploaded.json()) as { id: FileId }).id;
  const evidence = await server.ctx.db.selectFrom("cases").select(["id", "status"]).where("server_id", "=", team.serverId).where("number", "=", caseNumber).executeTakeFirstOrThrow();
  expect(evidence.status).toBe("open");
  const logKey = await createKeyAs(server, team.owner, team.serverId, { name: `${name} logger`, permissions: ["logs:write"] });
  const { api_key: logSecret, data } = (await logKey.json()) as { api_key: string; data: { id: ApiKeyId; name: string } };
  const logged = await server.request("/api/logs", { method: "POST", headers: { "x-api-key": logSecret, "Content-Type": "application/json" }, body: JSON.stringify({ message: `${name} shift started` }) });
  expect(logged.status).toBeLessThan(300);
  expect((await postForm(server, "/logs", { intent: "save-query", name: `${name} shifts`, search: "q=shift" }, { cookie: team.owner.cookie })).status).toBe(200);
  const query = await server.ctx.db.selectFrom("log_saved_queries").select("id").where("team_id", "=", team.id).executeTakeFirstOrThrow();
  const dataset = await server.ctx.db.selectFrom("log_datasets").select("id").where("server_id", "=", team.serverId).executeTakeFirstOrThrow();
  return { team, fileId, fileName, caseId: evidence.id, caseNumber, keyId: data.id, keyName: data.name, queryId: query.id, datasetId: dataset.id };
}

/** Ids of the same shapes that name nothing at all. */
function madeUp(): Holdings {
  return {
    fileId: randomUUID() as FileId,
    caseId: randomUUID() as CaseId,
    caseNumber: "NOPE-0001",
    keyId: randomUUID() as ApiKeyId,
    queryId: randomUUID(),
    datasetId: randomUUID(),
    team: { id: randomUUID(), serverId: "nosuchserver", member: { user: { id: randomUUID() } } } as unknown as StaffTeam,
    fileName: "",
    keyName: "",
  };
}

/** An endpoint, and what it answers an owner and a member when it is not a 404. */
type Probe = [label: string, send: (as: Prober, target: Holdings) => Promise<Response>, answers?: { owner?: number; member?: number }];

/** Endpoints a member's role does not open at all: the same 403 whatever id they name. */
const KEY_MANAGERS_ONLY = { member: 403 };

interface Prober {
  server: TestServer;
  team: StaffTeam;
  who: SignedInUser;
  role: "owner" | "member";
}

const cookie = (p: Prober) => ({ Cookie: p.who.cookie, Origin: p.server.url });
const keyed = (p: Prober) => ({ "x-api-key": p.team.key });
const jsonBody = (body: unknown) => ({ "Content-Type": "application/json", body: JSON.stringify(body) });

/** Every endpoint that takes an id of a file, case, key, server, team, member, saved search or dataset. */
const PROBES: Probe[] = [
  // The script API, with the prober's key (upload, read, delete).
  ["GET /api/files/{id}", (p, t) => p.server.request(`/api/files/${t.fileId}`, { headers: keyed(p) })],
  ["DELETE /api/files/{id}", (p, t) => p.server.request(`/api/files/${t.fileId}`, { method: "DELETE", headers: keyed(p) })],
  ["GET /api/files/{id}/signed-url", (p, t) => p.server.request(`/api/files/${t.fileId}/signed-url`, { headers: keyed(p) })],
  ["GET /api/download/{id}", (p, t) => p.server.request(`/api/download/${t.fileId}`, { headers: keyed(p) })],
  ["GET /v/{id}", (p, t) => p.server.request(`/v/${t.fileId}`)],
  ["GET /api/cases/{number}", (p, t) => p.server.request(`/api/cases/${t.caseNumber}`, { headers: keyed(p) })],
  ["GET /api/cases/{number}/export", (p, t) => p.server.request(`/api/cases/${t.caseNumber}/export`, { headers: keyed(p) })],
  ["POST /api/cases/{number}/close", (p, t) => p.server.request(`/api/cases/${t.caseNumber}/close`, { method: "POST", headers: keyed(p) })],
  ["POST /api/cases/{number}/files", (p, t) => p.server.request(`/api/cases/${t.caseNumber}/files`, { method: "POST", headers: { ...keyed(p), "Content-Type": "application/json" }, body: JSON.stringify({ file_ids: [t.fileId] }) })],
  ["GET /api/search?server_id=", (p, t) => p.server.request(`/api/search?server_id=${t.team.serverId}`, { headers: keyed(p) }), { owner: 403, member: 403 }],
  ["POST /api/webhooks/{server}/{secret}", (p, t) => p.server.request(`/api/webhooks/${t.team.serverId}/guessedsecret`, { method: "POST", ...jsonBody({ content: "hi" }) })],
  // The portal's cookie APIs.
  ["GET /api/media/{id}", (p, t) => p.server.request(`/api/media/${t.fileId}`, { headers: cookie(p) })],
  ["GET /api/media/{id}?download=1", (p, t) => p.server.request(`/api/media/${t.fileId}?download=1`, { headers: cookie(p) })],
  ["GET /api/media/{id}?thumb=1", (p, t) => p.server.request(`/api/media/${t.fileId}?thumb=1`, { headers: cookie(p) })],
  ["GET /api/portal/files.zip?id=", (p, t) => p.server.request(`/api/portal/files.zip?id=${t.fileId}`, { headers: cookie(p) })],
  ["POST /api/portal/upload?server_id=", (p, t) => p.server.request(`/api/portal/upload?server_id=${t.team.serverId}`, { method: "POST", headers: cookie(p), body: form([{ field: "file", data: Buffer.from("x"), filename: "x.png", type: "image/png" }]) })],
  ["PUT /api/keys/{id}", (p, t) => p.server.request(`/api/keys/${t.keyId}`, { method: "PUT", headers: cookie(p), ...jsonBody({ name: "Stolen" }) }), KEY_MANAGERS_ONLY],
  ["DELETE /api/keys/{id}", (p, t) => p.server.request(`/api/keys/${t.keyId}`, { method: "DELETE", headers: cookie(p) }), KEY_MANAGERS_ONLY],
  ["POST /api/keys regenerate", (p, t) => p.server.request("/api/keys", { method: "POST", headers: cookie(p), ...jsonBody({ key_id: t.keyId, operation: "regenerate" }) }), KEY_MANAGERS_ONLY],
  ["POST /api/keys delete", (p, t) => p.server.request("/api/keys", { method: "POST", headers: cookie(p), ...jsonBody({ key_id: t.keyId, operation: "delete" }) }), KEY_MANAGERS_ONLY],
  ["POST /api/keys on a server", (p, t) => p.server.request("/api/keys", { method: "POST", headers: cookie(p), ...jsonBody({ name: "Mine now", server_id: t.team.serverId }) }), KEY_MANAGERS_ONLY],
  ["GET /api/keys?server_id=", (p, t) => p.server.request(`/api/keys?server_id=${t.team.serverId}`, { headers: cookie(p) }), { owner: 200, member: 403 }],
  // Portal pages and their forms.
  ["GET /gallery/{id}", (p, t) => p.server.request(`/gallery/${t.fileId}`, { headers: cookie(p) })],
  ...["delete", "visibility", "createShare", "keepForever", "addToCase"].map((intent): Probe => [`POST /gallery/{id} ${intent}`, (p, t) => postForm(p.server, `/gallery/${t.fileId}`, { intent, visibility: "public", keep: "on", caseId: t.caseId }, { cookie: p.who.cookie })]),
  ...["delete", "visibility", "category"].map((intent): Probe => [`POST /gallery ${intent}`, (p, t) => postForm(p.server, "/gallery", { intent, id: t.fileId, visibility: "public", category: "stolen" }, { cookie: p.who.cookie })]),
  ["GET /servers/{id}", (p, t) => p.server.request(`/servers/${t.team.serverId}`, { headers: cookie(p) })],
  ["POST /servers/{id} delete", (p, t) => postForm(p.server, `/servers/${t.team.serverId}`, { intent: "delete" }, { cookie: p.who.cookie })],
  ["GET /cases/{id}/export.zip", (p, t) => p.server.request(`/cases/${t.caseId}/export.zip`, { headers: cookie(p) })],
  ...["close", "reopen", "members"].map((intent): Probe => [`POST /cases ${intent}`, (p, t) => postForm(p.server, "/cases", { intent, caseId: t.caseId }, { cookie: p.who.cookie })]),
  ["POST /cases open on a server", (p, t) => postForm(p.server, "/cases", { intent: "open", serverId: t.team.serverId, number: "PROBE-1", title: "", notes: "" }, { cookie: p.who.cookie }), { owner: 400, member: 400 }],
  ...["regenerate", "delete"].map((intent): Probe => [`POST /api-keys ${intent}`, (p, t) => postForm(p.server, "/api-keys", { intent, keyId: t.keyId }, { cookie: p.who.cookie }), KEY_MANAGERS_ONLY]),
  ["POST /api-keys create", (p, t) => postForm(p.server, "/api-keys", { intent: "create", name: "Mine now", serverId: t.team.serverId, permissions: "upload", expiresIn: "never" }, { cookie: p.who.cookie }), KEY_MANAGERS_ONLY],
  ...["member-update", "member-remove", "transfer"].map((intent): Probe => [`POST /team ${intent}`, (p, t) => postForm(p.server, "/team", { intent, userId: t.team.member.user.id, role: "admin" }, { cookie: p.who.cookie })]),
  ["POST /team/switch", (p, t) => postForm(p.server, "/team/switch", { teamId: t.team.id }, { cookie: p.who.cookie })],
  ["POST /logs delete-query", (p, t) => postForm(p.server, "/logs", { intent: "delete-query", id: t.queryId }, { cookie: p.who.cookie })],
  ["POST /logs retention", (p, t) => postForm(p.server, "/logs", { intent: "retention", datasetId: t.datasetId, days: "7" }, { cookie: p.who.cookie })],
];

/** What an answer tells its reader: the status, and the JSON body or the toast (HTML pages: the status alone). */
async function reading(res: Response, ids: string[]) {
  const text = await res.text();
  const blank = (value: string) => ids.reduce((out, id) => out.split(id).join("{id}"), value);
  const type = res.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    const { request_id: _requestId, ...body } = JSON.parse(text) as Record<string, unknown>;
    return { status: res.status, body: blank(JSON.stringify(body)), text };
  }
  return { status: res.status, body: JSON.stringify(readToast(res)), text };
}

async function probeAll(prober: Prober, target: Holdings) {
  const nothing = madeUp();
  const idsOf = (h: Holdings) => [h.fileId, h.caseId, h.caseNumber, h.keyId, h.queryId, h.datasetId, h.team.id, h.team.serverId, h.team.member.user.id];
  for (const [label, send, answers] of PROBES) {
    const real = await reading(await send(prober, target), idsOf(target));
    const none = await reading(await send(prober, nothing), idsOf(nothing));
    expect({ label, status: real.status, body: real.body }).toEqual({ label, status: none.status, body: none.body });
    // Named resources are looked up before any refusal of what may be done to them: a member gets the 404 too.
    expect(real.status, `${label} as ${prober.role}`).toBe(answers?.[prober.role] ?? 404);
    for (const secret of [target.fileName, target.caseNumber, target.keyName, target.team.name, target.team.member.email]) {
      expect(real.text.includes(secret), `${label} names ${secret}`).toBe(false);
    }
  }
}

/** Nothing of the probed team changed: its file, its case, its key, its member, its saved search. */
async function unchanged(server: TestServer, target: Holdings) {
  const { db } = server.ctx;
  expect(await db.selectFrom("files").select(["id", "is_public", "category"]).where("id", "=", target.fileId).executeTakeFirst()).toMatchObject({ is_public: false, category: "other" });
  expect(await db.selectFrom("cases").select("status").where("id", "=", target.caseId).executeTakeFirst()).toEqual({ status: "open" });
  expect(await db.selectFrom("api_keys").select(["name", "status"]).where("id", "=", target.keyId).executeTakeFirst()).toEqual({ name: target.keyName, status: "active" });
  expect(await db.selectFrom("team_members").select("role").where("team_id", "=", target.team.id).where("user_id", "=", target.team.member.user.id).executeTakeFirst()).toEqual({ role: "member" });
  expect(await db.selectFrom("log_saved_queries").select("id").where("id", "=", target.queryId).executeTakeFirst()).toBeDefined();
  expect(await db.selectFrom("file_shares").select("token").where("file_id", "=", target.fileId).execute()).toEqual([]);
}

describe("two teams, each other's ids", () => {
  test("every endpoint that takes an id answers another team's id as it answers one that names nothing, and changes nothing", { timeout: 120_000 }, async ({ server }) => {
    const north = await holdings(server, "Blaine", "XT-0020");
    const south = await holdings(server, "Strawberry", "LS-0031");
    // Owners (every permission) and members (view only) of each team, both ways.
    for (const [prober, target] of [[north, south], [south, north]] as const) {
      await probeAll({ server, team: prober.team, who: prober.team.owner, role: "owner" }, target);
      await probeAll({ server, team: prober.team, who: prober.team.member, role: "member" }, target);
    }
    await unchanged(server, north);
    await unchanged(server, south);
  });

  test("deleting another team's file that is evidence in an open case is a plain 404, not the case's 409", async ({ server }) => {
    const north = await holdings(server, "Harmony", "XT-0020");
    const south = await holdings(server, "Grapeseed", "GS-0002");
    const res = await server.request(`/api/files/${north.fileId}`, { method: "DELETE", headers: { "x-api-key": south.team.key } });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body).toMatchObject({ code: "not_found", error: "File not found" });
    expect(JSON.stringify(body)).not.toContain("XT-0020");
    // Its own team's delete is still refused while the case is open.
    const own = await server.request(`/api/files/${north.fileId}`, { method: "DELETE", headers: { "x-api-key": north.team.key } });
    expect(own.status).toBe(409);
    expect(await own.json()).toMatchObject({ code: "file_in_open_case", case: "XT-0020" });
  });
});
