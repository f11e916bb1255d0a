import { describe, expect } from "vitest";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { signUpAndSignIn } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { gameScreenshot } from "../helpers/images.ts";
import { form } from "../helpers/upload-fixtures.ts";

let server: TestServer;
test.beforeAll(async ({ server: started }) => {
  server = started;
});

describe("dashboard onboarding", () => {
  test("a new account sees the checklist tick from real data, with this instance's snippets, until its first upload", async () => {
    const who = await signUpAndSignIn(server);
    const dashboard = async () => (await (await server.request("/dashboard", { headers: { Cookie: who.cookie } })).text()).replace(/<!-- -->/g, "");
    const steps = (html: string) => [...html.matchAll(/data-testid="onboarding-step" data-done="(true|false)"/g)].map((m) => m[1] === "true");

    let html = await dashboard();
    expect(html).toContain("0 of 3 done");
    expect(steps(html)).toEqual([false, false, false]);
    expect(html).toContain(`${server.ctx.config.appUrl}/api/upload`);
    for (const label of ["screenshot-basic", "LB Phone", "NPWD", "qb-phone", "ShareX"]) expect(html).toContain(label);

    const gameServer = await createServer(server.ctx.db, { teamId: who.teamId, name: "Vinewood RP" });
    html = await dashboard();
    expect(steps(html)).toEqual([true, false, false]);
    expect(html).toContain("Server created");

    const { secret } = await createApiKey(server.ctx.db, { serverId: gameServer.id, teamId: who.teamId, name: "game" });
    expect(steps(await dashboard())).toEqual([true, true, false]);

    const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": secret }, body: form([{ field: "file", data: await gameScreenshot(320, 180, 2, "jpeg"), filename: "first.jpg" }]) });
    expect(res.status).toBe(201);
    html = await dashboard();
    expect(steps(html)).toEqual([]);
    expect(html).not.toContain("Get started");
  });
});
