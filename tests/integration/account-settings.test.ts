import { describe, expect } from "vitest";
import { verifyCredentials } from "../../app/services/accounts/password-accounts.server.ts";
import { findUserById } from "../../app/services/accounts/users.server.ts";
import { createSessionCookie, postForm, readToast, signUpAndSignIn } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";

const settings = (server: TestServer, cookie: string, fields: Record<string, string>) => postForm(server, "/settings", fields, { cookie });
const page = async (server: TestServer, cookie: string) => server.request("/settings", { headers: { Cookie: cookie }, redirect: "manual" });

describe("settings: display name", () => {
  test("changes the name, cleaned like every text input, and refuses an empty one", async ({ server }) => {
    const who = await signUpAndSignIn(server, { displayName: "Old Name" });
    for (const [displayName, message] of [
      ["", "Display name is required"],
      ["   ", "Display name is required"],
      ["<script>alert(1)</script>", "Display name can only be plain text: tags and scripts are removed"],
    ]) {
      const res = await settings(server, who.cookie, { intent: "updateProfile", displayName: displayName! });
      expect(res.status).toBe(400);
      expect(readToast(res)).toEqual({ type: "error", title: "Error updating profile", description: message });
    }
    expect((await findUserById(server.ctx.db, who.user.id))?.display_name).toBe("Old Name");

    const res = await settings(server, who.cookie, { intent: "updateProfile", displayName: "  Officer <b>Vega</b> " });
    expect(res.status).toBe(200);
    expect(readToast(res)).toMatchObject({ type: "success", title: "Profile updated" });
    expect((await findUserById(server.ctx.db, who.user.id))?.display_name).toBe("Officer Vega");
    expect(await (await page(server, who.cookie)).text()).toContain('value="Officer Vega"');
  });
});

describe("settings: password", () => {
  test("needs the current password, then the new one works, the old does not, and other devices are signed out", async ({ server }) => {
    const who = await signUpAndSignIn(server, { password: "old password 1" });
    const phone = await createSessionCookie(server.ctx, who.user.id);
    const change = (fields: Record<string, string>) => settings(server, who.cookie, { intent: "changePassword", ...fields });

    const refusals: [Record<string, string>, number, string][] = [
      [{ currentPassword: "wrong", newPassword: "new password 2", confirmPassword: "new password 2" }, 401, "Your current password is not correct"],
      [{ currentPassword: "old password 1", newPassword: "short", confirmPassword: "short" }, 400, "Password must be at least"],
      [{ currentPassword: "old password 1", newPassword: "new password 2", confirmPassword: "new password 3" }, 400, "Passwords do not match"],
      [{ currentPassword: "old password 1", newPassword: "", confirmPassword: "" }, 400, "Please fill in all fields"],
    ];
    for (const [fields, status, message] of refusals) {
      const res = await change(fields);
      expect(res.status).toBe(status);
      expect(await res.text()).toContain(message);
    }
    expect((await page(server, phone.cookie)).status).toBe(200);

    const res = await change({ currentPassword: "old password 1", newPassword: "new password 2", confirmPassword: "new password 2" });
    expect(res.status).toBe(200);
    expect(readToast(res)).toMatchObject({ type: "success", title: "Password updated" });
    await expect(verifyCredentials(server.ctx.db, who.email, "old password 1")).rejects.toMatchObject({ code: "invalid_credentials" });
    expect((await verifyCredentials(server.ctx.db, who.email, "new password 2")).id).toBe(who.user.id);
    expect((await page(server, who.cookie)).status).toBe(200);
    const phonePage = await page(server, phone.cookie);
    expect(phonePage.status).toBe(302);
    expect(phonePage.headers.get("location")).toMatch(/^\/auth\?/);
  });
});

describe("settings: signed-in devices", () => {
  test("lists the account's sessions and signs out another device, never someone else's", async ({ server }) => {
    const who = await signUpAndSignIn(server);
    const other = await createSessionCookie(server.ctx, who.user.id);
    const stranger = await signUpAndSignIn(server);

    const html = await (await page(server, who.cookie)).text();
    expect(html.match(/data-testid="session-row"/g)).toHaveLength(2);
    expect(html).toContain("This device");
    const sessions = await server.ctx.db.selectFrom("sessions").select("id").where("user_id", "=", who.user.id).execute();
    const otherId = sessions.find((s) => html.includes(`value="${s.id}"`))!.id;

    const foreign = await settings(server, stranger.cookie, { intent: "revokeSession", sessionId: otherId });
    expect(foreign.status).toBe(404);
    expect((await page(server, other.cookie)).status).toBe(200);

    const res = await settings(server, who.cookie, { intent: "revokeSession", sessionId: otherId });
    expect(res.status).toBe(200);
    expect(readToast(res)).toMatchObject({ type: "success", title: "Device signed out" });
    expect((await page(server, other.cookie)).status).toBe(302);
    expect((await page(server, who.cookie)).status).toBe(200);
  });
});
