import { describe, expect } from "vitest";
import { postForm, readToast, type SignedInUser } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { staffTeam, type StaffTeam } from "../helpers/teams.ts";
import { form, png } from "../helpers/upload-fixtures.ts";

/** The audit trail's rows as the owner reads them on /audit: actor, action, target. */
async function auditRows(server: TestServer, who: SignedInUser) {
  await server.flushUsage();
  const html = (await (await server.request("/audit", { headers: { Cookie: who.cookie } })).text()).replace(/<!-- -->/g, "");
  return [...html.matchAll(/data-testid="audit-row"[\s\S]*?data-testid="audit-actor">([^<]*)<[\s\S]*?data-testid="audit-action">([^<]*)<\/span>(?:<span[^>]*data-testid="audit-target"> · ([^<]*)<)?/g)].map((m) => [m[1], m[2].replace(/&#x27;/g, "'"), m[3] ?? ""]);
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
  });
});
