import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { adminCheckMessage } from "../../app/http/guards.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { findUserById } from "../../app/services/accounts/users.server.ts";
import { postForm, readToast, signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let admin: SignedInUser;

test.beforeAll(async ({ server: started }) => {
  server = started;
  admin = await signUpAndSignIn(server, { role: "admin", displayName: "Ada Admin" });
});

/** Posts a role change; returns the toast the redirect back to the list carries. */
async function changeRole(actor: SignedInUser, userId: string, role: string, target: TestServer = server) {
  const res = await postForm(target, "/admin/users", { intent: "setRole", userId, role }, { cookie: actor.cookie });
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe("/admin/users");
  return readToast(res);
}

describe("admin guard", () => {
  it("sends a visitor to /auth and a non-admin to /", async () => {
    const visitor = await server.request("/admin/users", { redirect: "manual" });
    expect(visitor.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent("/admin/users")}`);
    const member = await signUpAndSignIn(server);
    const page = await server.request("/admin/users", { headers: { Cookie: member.cookie }, redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/");
  });

  it("words an admin-check failure as the spec does", () => {
    expect(adminCheckMessage(new Error("connection refused"))).toBe(
      "Failed to verify admin permissions: connection refused",
    );
  });
});

describe("/admin/users", () => {
  it("lists every user with id prefix, role, servers, storage in GB and join date", async () => {
    const owner = await signUpAndSignIn(server, { displayName: "Owner Person" });
    await createServer(server.ctx.db, { teamId: owner.teamId, name: "One" });
    await createServer(server.ctx.db, { teamId: owner.teamId, name: "Two" });
    await server.ctx.db.updateTable("account_usage").set({ used_bytes: Math.round(1.5 * 1024 ** 3) }).where("team_id", "=", owner.teamId).execute();
    const nameless = await signUpAndSignIn(server);
    await server.ctx.db.updateTable("users").set({ display_name: null }).where("id", "=", nameless.user.id).execute();

    const res = await server.request("/admin/users", { headers: { Cookie: admin.cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const total = (await server.ctx.db.selectFrom("users").select("id").execute()).length;
    expect(html).toContain(`${total}<!-- --> <!-- -->users`);
    expect(html).toContain("Owner Person");
    expect(html).toContain("Unnamed User");
    expect(html).toContain(owner.user.id.slice(0, 8));
    expect(html).not.toContain(`>${owner.user.id}<`);
    // Storage in the one size format every screen uses: the unit fits the figure.
    expect(html).toMatch(/Storage<\/dt><dd[^>]*>1\.5 GB<\/dd>/);
    expect(html).toMatch(/Storage<\/dt><dd[^>]*>0 B<\/dd>/);
    expect(html).toMatch(/Servers<\/dt><dd[^>]*>2<\/dd>/);
    expect(html).toContain("User Management | Stash");
  });

  it("changes a role and says so; the change holds", async () => {
    const target = await signUpAndSignIn(server, { displayName: "Promote Me" });
    expect(await changeRole(admin, target.user.id, "moderator")).toEqual({
      type: "success",
      title: "Role updated",
      description: "User role has been updated successfully",
    });
    const list = await (await server.request("/admin/users", { headers: { Cookie: admin.cookie } })).text();
    expect(list).toMatch(/Promote Me<\/span><span[^>]*>moderator<\/span>/);
    expect((await findUserById(server.ctx.db, target.user.id))?.role).toBe("moderator");
    await changeRole(admin, target.user.id, "admin");
    expect((await findUserById(server.ctx.db, target.user.id))?.role).toBe("admin");
    await changeRole(admin, target.user.id, "user");
    expect((await findUserById(server.ctx.db, target.user.id))?.role).toBe("user");
  });

  it("rejects a bad role or user with an Error toast and changes nothing", async () => {
    const target = await signUpAndSignIn(server);
    for (const [userId, role, message] of [
      [target.user.id, "superuser", "Unknown role"],
      [target.user.id, "", "Unknown role"],
      ["not-a-uuid", "admin", "Failed to update user role"],
      ["00000000-0000-4000-8000-000000000000", "admin", "User not found"],
    ] as const) {
      expect(await changeRole(admin, userId, role)).toEqual({ type: "error", title: "Error", description: message });
    }
    expect((await findUserById(server.ctx.db, target.user.id))?.role).toBe("user");
  });

  it("keeps the last admin from demoting themselves", async () => {
    const solo = await startTestServer();
    try {
      const only = await signUpAndSignIn(solo, { role: "admin" });
      expect(await changeRole(only, only.user.id, "user", solo)).toEqual({
        type: "error",
        title: "Error",
        description: "You are the only admin, so you cannot remove your own admin role.",
      });
      expect((await findUserById(solo.ctx.db, only.user.id))?.role).toBe("admin");

      const second = await signUpAndSignIn(solo, { role: "admin" });
      await postForm(solo, "/admin/users", { intent: "setRole", userId: only.user.id, role: "moderator" }, { cookie: only.cookie });
      expect((await findUserById(solo.ctx.db, only.user.id))?.role).toBe("moderator");
      const after = await solo.request("/admin/users", { headers: { Cookie: only.cookie }, redirect: "manual" });
      expect(after.headers.get("location")).toBe("/");
      expect((await findUserById(solo.ctx.db, second.user.id))?.role).toBe("admin");
    } finally {
      await solo.close();
    }
  });

  it("refuses role changes from non-admins and from other sites", async () => {
    const member = await signUpAndSignIn(server);
    const res = await postForm(server, "/admin/users", { intent: "setRole", userId: member.user.id, role: "admin" }, { cookie: member.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const forged = await postForm(
      server,
      "/admin/users",
      { intent: "setRole", userId: member.user.id, role: "admin" },
      { cookie: admin.cookie, headers: { Origin: "https://evil.example" } },
    );
    expect(forged.status).toBe(403);
    expect((await findUserById(server.ctx.db, member.user.id))?.role).toBe("user");
  });
});
