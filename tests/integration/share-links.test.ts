import { describe, expect } from "vitest";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { postForm, readToast, setCookies, signUpAndSignIn } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import { gameScreenshot } from "../helpers/images.ts";
import type { TestServer } from "../helpers/server.ts";
import { form } from "../helpers/upload-fixtures.ts";
import type { FileId } from "../../app/lib/ids.ts";

let server: TestServer;
test.beforeAll(async ({ server: started }) => {
  server = started;
});

async function privateFile() {
  const who = await signUpAndSignIn(server);
  const gameServer = await createServer(server.ctx.db, { teamId: who.teamId, name: "Share RP" });
  const { secret } = await createApiKey(server.ctx.db, { serverId: gameServer.id, teamId: who.teamId, name: "game" });
  const res = await server.request("/api/upload", {
    method: "POST",
    headers: { "x-api-key": secret },
    body: form([{ field: "is_public", data: "false" }, { field: "file", data: await gameScreenshot(320, 180, 8, "png"), filename: "evidence.png" }]),
  });
  expect(res.status).toBe(201);
  const file = (await res.json()) as { id: FileId; url: string };
  return { who, file };
}

const create = (cookie: string, fileId: string, fields: Record<string, string>) => postForm(server, `/gallery/${fileId}`, { intent: "createShare", ...fields }, { cookie });
const tokenOf = (res: Response) => readToast(res)!.description!.split("/s/")[1]!;

describe("share links with limits", () => {
  test("refuse bad options; a view limit lets exactly that many page views through; the raw bytes follow the page", async () => {
    const { who, file } = await privateFile();
    expect((await fetch(file.url)).status).toBe(404);
    for (const [fields, message] of [
      [{ expiresInHours: "5" }, "Choose when the link expires"],
      [{ expiresInHours: "never", password: "short" }, "8 to 128 characters"],
      [{ expiresInHours: "never", maxViews: "0" }, "View limit must be a whole number"],
    ] as const) {
      const res = await create(who.cookie, file.id, fields);
      expect(res.status).toBe(400);
      expect(readToast(res)?.description).toContain(message);
    }
    const stranger = await signUpAndSignIn(server);
    expect((await create(stranger.cookie, file.id, { expiresInHours: "24" })).status).toBe(404);
    expect(await server.ctx.db.selectFrom("file_shares").select("token").where("file_id", "=", file.id).execute()).toEqual([]);

    const token = tokenOf(await create(who.cookie, file.id, { expiresInHours: "24", maxViews: "2" }));
    for (const left of ["1 view left", "0 views left"]) {
      const page = await server.request(`/s/${token}`);
      expect(page.status).toBe(200);
      expect((await page.text()).replace(/<!-- -->/g, "")).toContain(left);
      const raw = await server.request(`/s/${token}/raw`);
      expect(raw.status).toBe(200);
      expect(raw.headers.get("content-type")).toBe("image/webp");
      expect(raw.headers.get("cache-control")).toBe("private, no-store");
      await raw.arrayBuffer();
    }
    const third = await server.request(`/s/${token}`);
    expect(third.status).toBe(410);
    expect(await third.text()).toContain("viewed as many times as its owner allowed");

    const html = await (await server.request(`/gallery/${file.id}`, { headers: { Cookie: who.cookie } })).text();
    expect(html).toContain("2 of 2 views");
    const revoked = await postForm(server, `/gallery/${file.id}`, { intent: "revokeShare", token }, { cookie: who.cookie });
    expect(readToast(revoked)).toMatchObject({ title: "Share link revoked" });
    expect((await server.request(`/s/${token}`)).status).toBe(404);
    expect((await server.request(`/s/${token}/raw`)).status).toBe(404);
  });

  test("a password is asked once per browser; a wrong one is refused; an expired link is 410", async () => {
    const { who, file } = await privateFile();
    const token = tokenOf(await create(who.cookie, file.id, { expiresInHours: "1", password: "open sesame 1" }));
    const locked = await server.request(`/s/${token}`);
    expect(locked.status).toBe(401);
    expect(await locked.text()).toContain("This file is protected");
    expect((await server.request(`/s/${token}/raw`)).status).toBe(401);

    const unlock = (password: string) =>
      server.request(`/s/${token}`, { method: "POST", redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url }, body: new URLSearchParams({ password }).toString() });
    const wrong = await unlock("not it at all");
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("That password is not right.");
    const right = await unlock("open sesame 1");
    expect(right.status).toBe(303);
    const cookie = setCookies(right).stash_share!;
    expect(cookie.raw).toContain(`Path=/s/${token}`);
    expect(cookie.raw).toContain("HttpOnly");
    const headers = { Cookie: `stash_share=${cookie.value}` };
    expect((await server.request(`/s/${token}`, { headers })).status).toBe(200);
    const raw = await server.request(`/s/${token}/raw?download=1`, { headers });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-disposition")).toMatch(/^attachment; filename="evidence.png"/);
    await raw.arrayBuffer();

    await server.ctx.db.updateTable("file_shares").set({ expires_at: new Date(Date.now() - 1000) }).where("token", "=", token).execute();
    const expired = await server.request(`/s/${token}`, { headers });
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain("This link has expired.");
    expect((await server.request(`/s/${token}/raw`, { headers })).status).toBe(404);
  });
});
