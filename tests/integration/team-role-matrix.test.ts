/**
 * Every role of a staff team against every guarded action: portal pages, the portal's cookie APIs,
 * the portal's forms, and the keys a member may make. Allowed means the answer an owner gets;
 * refused means a 403 that names the missing permission, and nothing changed. The team is made on
 * /team, so its id is nobody's; one server and one set of accounts serve the whole file.
 */
import { describe, expect } from "vitest";
import type { CaseId, FileId, ServerId } from "../../app/lib/ids.ts";
import { PERMISSION_LABELS, TEAM_PERMISSIONS, type TeamPermission } from "../../app/lib/team-roles.ts";
import { postForm, readToast, type SignedInUser } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { createKeyAs, expectNoPersonsId, inviteAndJoin, staffTeam, type StaffTeam } from "../helpers/teams.ts";
import { form, png } from "../helpers/upload-fixtures.ts";

const ROLES = ["owner", "admin", "developer", "member", "clerk"] as const;
type Role = (typeof ROLES)[number];

/** What each role holds: the roles' defaults, and a member an admin tailored into an evidence clerk. */
const HOLDS: Record<Role, readonly TeamPermission[]> = {
  owner: TEAM_PERMISSIONS,
  admin: TEAM_PERMISSIONS,
  developer: ["view_media", "manage_servers", "manage_keys", "view_logs"],
  member: ["view_media", "view_logs"],
  clerk: ["view_media", "delete_media"],
};

interface Matrix {
  team: StaffTeam;
  people: Record<Role, SignedInUser>;
  /** A file every role may ask for by id. */
  fileId: FileId;
  /** A key of the owner's, for PUT /api/keys/{id}. */
  keyId: string;
  datasetId: string;
}

async function buildMatrix(server: TestServer): Promise<Matrix> {
  const team = await staffTeam(server, "Davis");
  const clerk = await inviteAndJoin(server, team.owner, "member", { customPermissions: "on", permissions: ["view_media", "delete_media"] });
  const fileId = await uploadShot(server, team);
  const made = await createKeyAs(server, team.owner, team.serverId, { name: "Logger", permissions: ["logs:write"] });
  const { api_key: logKey, data } = (await made.json()) as { api_key: string; data: { id: string } };
  const logged = await server.request("/api/logs", { method: "POST", headers: { "x-api-key": logKey, "Content-Type": "application/json" }, body: JSON.stringify({ message: "shift started" }) });
  expect(logged.status).toBeLessThan(300);
  const dataset = await server.ctx.db.selectFrom("log_datasets").select("id").where("server_id", "=", team.serverId).executeTakeFirstOrThrow();
  return { team, people: { owner: team.owner, admin: team.admin, developer: team.developer, member: team.member, clerk }, fileId, keyId: data.id, datasetId: dataset.id };
}

const matrixTest = test.extend<{ matrix: Matrix }>({
  matrix: [async ({ server }, use) => use(await buildMatrix(server)), { scope: "file" }],
});

let uploads = 0;
async function uploadShot(server: TestServer, team: StaffTeam): Promise<FileId> {
  uploads += 1;
  const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": team.key }, body: form([{ field: "file", data: await png(10 + (uploads % 50), 10), filename: `shot-${uploads}.png`, type: "image/png" }]) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: FileId }).id;
}

/** What one request needs: who sends it, the team, and a fresh file or case of its own when it changes one. */
interface Call {
  server: TestServer;
  m: Matrix;
  role: Role;
  who: SignedInUser;
  file(): Promise<FileId>;
  evidenceCase(): Promise<CaseId>;
}

interface Row {
  label: string;
  /** The permissions it needs, checked in this order: a refusal names the first the role lacks. */
  needs: TeamPermission[];
  send(c: Call): Promise<Response>;
  /** What a refused request must leave as it was. */
  state?(c: Call): Promise<unknown>;
  /** The status when allowed (200 unless said). */
  ok?: number;
}

/** A page (or a download the portal links to): opening it changes nothing, refused or not. */
const page = (path: string, needs: TeamPermission[]): Row => ({
  label: `GET ${path}`,
  needs,
  send: (c) => c.server.request(path.replace("{file}", c.m.fileId), { headers: { Cookie: c.who.cookie } }),
});
const cookieApi = (c: Call, method: string, path: string, body?: unknown) =>
  c.server.request(path, { method, headers: { Cookie: c.who.cookie, Origin: c.server.url, ...(body === undefined ? {} : { "Content-Type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) });
const keysOfTeam = (c: Call) => c.server.ctx.db.selectFrom("api_keys").select(["id", "name", "permissions"]).where("team_id", "=", c.m.team.id).orderBy("id").execute();
const fileRow = (c: Call, id: FileId) => c.server.ctx.db.selectFrom("files").select(["id", "is_public", "category"]).where("id", "=", id).executeTakeFirst();

const ROWS: Row[] = [
  // Portal pages.
  page("/dashboard", []),
  page("/team", []),
  page("/servers", []),
  page("/gallery", ["view_media"]),
  page("/gallery/{file}", ["view_media"]),
  page("/upload", ["view_media"]),
  page("/storage", ["view_media"]),
  page("/cases", ["view_media"]),
  page("/api-keys", ["manage_keys"]),
  page("/logs", ["view_logs"]),
  page("/billing", ["manage_billing"]),
  page("/audit", ["manage_members"]),
  page("/audit/export?format=csv", ["manage_members"]),
  // The portal's cookie APIs.
  { label: "GET /api/media/{file}", needs: ["view_media"], send: (c) => cookieApi(c, "GET", `/api/media/${c.m.fileId}`) },
  { label: "GET /api/media/{file}?download=1", needs: ["view_media"], send: (c) => cookieApi(c, "GET", `/api/media/${c.m.fileId}?download=1`) },
  { label: "GET /api/portal/files.zip", needs: ["view_media"], send: (c) => cookieApi(c, "GET", `/api/portal/files.zip?id=${c.m.fileId}`) },
  {
    label: "POST /api/portal/upload",
    needs: ["view_media"],
    ok: 201,
    send: async (c) =>
      c.server.request(`/api/portal/upload?server_id=${c.m.team.serverId}`, { method: "POST", headers: { Cookie: c.who.cookie, Origin: c.server.url }, body: form([{ field: "file", data: await png(9, 9), filename: `${c.role}.png`, type: "image/png" }]) }),
    state: async (c) => (await c.server.ctx.db.selectFrom("files").select("id").where("server_id", "=", c.m.team.serverId).execute()).length,
  },
  { label: "GET /api/keys", needs: ["manage_keys"], send: (c) => cookieApi(c, "GET", "/api/keys") },
  { label: "PUT /api/keys/{id}", needs: ["manage_keys"], send: (c) => cookieApi(c, "PUT", `/api/keys/${c.m.keyId}`, { name: `Logger (${c.role})` }), state: keysOfTeam },
  { label: "GET /api/billing/check-subscription", needs: [], send: (c) => cookieApi(c, "GET", "/api/billing/check-subscription") },
  // Allowed, it reaches Stripe's absence (payments are off in tests): a 503, not a 403.
  { label: "POST /api/billing/create-checkout", needs: ["manage_billing"], ok: 503, send: (c) => cookieApi(c, "POST", "/api/billing/create-checkout", { tier: "starter" }) },
  // The portal's forms.
  {
    label: "POST /gallery delete",
    needs: ["delete_media"],
    send: async (c) => postForm(c.server, "/gallery", { intent: "delete", id: await c.file() }, { cookie: c.who.cookie }),
    state: async (c) => fileRow(c, await c.file()),
  },
  {
    label: "POST /gallery visibility",
    needs: ["delete_media"],
    send: async (c) => postForm(c.server, "/gallery", { intent: "visibility", visibility: "private", id: await c.file() }, { cookie: c.who.cookie }),
    state: async (c) => fileRow(c, await c.file()),
  },
  {
    label: "POST /gallery/{file} createShare",
    needs: ["delete_media"],
    send: async (c) => postForm(c.server, `/gallery/${await c.file()}`, { intent: "createShare", expiresInHours: "24" }, { cookie: c.who.cookie }),
    state: async (c) => c.server.ctx.db.selectFrom("file_shares").select("token").where("file_id", "=", await c.file()).execute(),
  },
  {
    label: "POST /cases open",
    needs: ["view_media"],
    send: (c) => postForm(c.server, "/cases", { intent: "open", serverId: c.m.team.serverId, number: `OPEN-${c.role}`, title: "", notes: "" }, { cookie: c.who.cookie }),
  },
  {
    label: "POST /cases close",
    needs: ["delete_media"],
    send: async (c) => postForm(c.server, "/cases", { intent: "close", caseId: await c.evidenceCase() }, { cookie: c.who.cookie }),
    state: async (c) => c.server.ctx.db.selectFrom("cases").select("status").where("id", "=", await c.evidenceCase()).executeTakeFirst(),
  },
  {
    label: "POST /cases members",
    needs: ["manage_members"],
    send: async (c) => postForm(c.server, "/cases", { intent: "members", caseId: await c.evidenceCase(), members: [c.m.people.member.user.id] }, { cookie: c.who.cookie }),
    state: async (c) => c.server.ctx.db.selectFrom("case_members").select("user_id").where("case_id", "=", await c.evidenceCase()).execute(),
  },
  {
    label: "POST /servers create",
    needs: ["manage_servers"],
    send: (c) => postForm(c.server, "/servers", { name: `Matrix ${c.role} RP`, description: "", endpointUrl: "", maxFileSizeMb: "50", allowedFileTypes: "png" }, { cookie: c.who.cookie }),
    state: (c) => c.server.ctx.db.selectFrom("servers").select("name").where("team_id", "=", c.m.team.id).orderBy("name").execute(),
  },
  {
    label: "POST /servers/{id} visibility",
    needs: ["manage_servers"],
    send: (c) => postForm(c.server, `/servers/${c.m.team.serverId}`, { intent: "visibility", defaultPublic: ROLES.indexOf(c.role) % 2 ? "private" : "public" }, { cookie: c.who.cookie }),
    state: (c) => c.server.ctx.db.selectFrom("servers").select("default_public").where("id", "=", c.m.team.serverId as ServerId).executeTakeFirst(),
  },
  {
    label: "POST /team rename",
    needs: ["manage_members"],
    send: (c) => postForm(c.server, "/team", { intent: "rename", name: `Davis (${c.role})` }, { cookie: c.who.cookie }),
    state: (c) => c.server.ctx.db.selectFrom("teams").select("name").where("id", "=", c.m.team.id).executeTakeFirst(),
  },
  {
    label: "POST /team invite",
    needs: ["manage_members"],
    send: (c) => postForm(c.server, "/team", { intent: "invite", email: `matrix-${c.role}-${Date.now()}@example.com`, role: "member" }, { cookie: c.who.cookie }),
    state: (c) => c.server.ctx.db.selectFrom("team_invitations").select("id").where("team_id", "=", c.m.team.id).execute(),
  },
  {
    label: "POST /team member-update",
    needs: ["manage_members"],
    send: (c) => postForm(c.server, "/team", { intent: "member-update", userId: c.m.people.member.user.id, role: "member", permissions: [...HOLDS.member] }, { cookie: c.who.cookie }),
    state: (c) => c.server.ctx.db.selectFrom("team_members").select(["role", "permissions"]).where("team_id", "=", c.m.team.id).where("user_id", "=", c.m.people.member.user.id).executeTakeFirst(),
  },
  {
    label: "POST /logs retention",
    needs: ["view_logs", "manage_servers"],
    send: (c) => postForm(c.server, "/logs", { intent: "retention", datasetId: c.m.datasetId, days: String(2 + ROLES.indexOf(c.role)) }, { cookie: c.who.cookie }),
    state: (c) => c.server.ctx.db.selectFrom("log_datasets").select("retention_days").where("id", "=", c.m.datasetId).executeTakeFirst(),
  },
  {
    label: "POST /api-keys create",
    needs: ["manage_keys"],
    send: (c) => postForm(c.server, "/api-keys", { intent: "create", name: `Form key (${c.role})`, serverId: c.m.team.serverId, permissions: "upload", expiresIn: "never" }, { cookie: c.who.cookie }),
    state: keysOfTeam,
  },
  // Keys: "Manage API keys" to make one, and each key permission needs the maker's own (decision 098).
  ...(
    [
      ["upload", "view_media"],
      ["read", "view_media"],
      ["delete", "delete_media"],
      ["logs:write", "view_logs"],
    ] as const
  ).map(
    ([permission, requires]): Row => ({
      label: `POST /api/keys with ${permission}`,
      needs: ["manage_keys", requires],
      ok: 201,
      send: (c) => createKeyAs(c.server, c.who, c.m.team.serverId, { name: `${permission} key (${c.role})`, permissions: [permission] }),
      state: keysOfTeam,
    }),
  ),
];

/** What a 403 tells its reader: a form's toast, a cookie API's JSON error, or the error page. */
async function refusalText(res: Response): Promise<string> {
  const toast = readToast(res);
  if (toast) return toast.description ?? toast.title;
  const text = await res.text();
  if ((res.headers.get("content-type") ?? "").includes("json")) {
    // A cookie API's error object, or a download route's refusal (its message as a JSON string).
    const body = JSON.parse(text) as { error: string } | string;
    return typeof body === "string" ? body : body.error;
  }
  return text.replace(/<!-- -->/g, "").replace(/&quot;/g, '"').replace(/&#x27;/g, "'");
}

describe("each role against each guarded action", () => {
  matrixTest("the team is nobody's personal team, and each role holds what the matrix says", async ({ server, matrix }) => {
    await expectNoPersonsId(server, matrix.team.id);
    for (const role of ROLES) {
      expect(matrix.people[role].user.id as string, role).not.toBe(matrix.team.id);
      const row = await server.ctx.db.selectFrom("team_members").select("permissions").where("team_id", "=", matrix.team.id).where("user_id", "=", matrix.people[role].user.id).executeTakeFirstOrThrow();
      expect([...row.permissions].sort(), role).toEqual([...HOLDS[role]].sort());
    }
  });

  describe.for(ROLES)("%s", (role) => {
    matrixTest.for(ROWS)("$label", async (row, { server, matrix }) => {
      const held = HOLDS[role];
      const missing = row.needs.find((permission) => !held.includes(permission));
      let file: Promise<FileId> | undefined;
      let evidenceCase: Promise<CaseId> | undefined;
      const call: Call = {
        server,
        m: matrix,
        role,
        who: matrix.people[role],
        file: () => (file ??= uploadShot(server, matrix.team)),
        evidenceCase: () =>
          (evidenceCase ??= (async () => {
            const number = `MX-${role}-${ROWS.indexOf(row)}`;
            const res = await server.request("/api/cases", { method: "POST", headers: { "x-api-key": matrix.team.key, "Content-Type": "application/json" }, body: JSON.stringify({ number }) });
            expect(res.status).toBe(201);
            return (await server.ctx.db.selectFrom("cases").select("id").where("server_id", "=", matrix.team.serverId).where("number", "=", number).executeTakeFirstOrThrow()).id;
          })()),
      };
      const before = row.state ? await row.state(call) : undefined;
      const res = await row.send(call);
      if (!missing) {
        expect(res.status, `${role} may: ${await res.clone().text().then((t) => t.slice(0, 300))}`).toBe(row.ok ?? 200);
        await res.arrayBuffer();
        return;
      }
      expect(res.status, `${role} may not`).toBe(403);
      expect(await refusalText(res)).toContain(`"${PERMISSION_LABELS[missing]}"`);
      if (row.state) expect(await row.state(call)).toEqual(before);
    });
  });
});
