import { describe, expect } from "vitest";
import { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import { postForm, signUpAndSignIn } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";

/** The flash toast a redirect carries (React Router's cookie: base64 of the JSON). */
function toastOf(res: Response): string {
  const value = res.headers.getSetCookie().find((c) => c.startsWith("stash_toast="))?.split(";")[0]?.slice("stash_toast=".length) ?? "";
  return Buffer.from(decodeURIComponent(value), "base64").toString("utf8");
}

describe("admin plan and extra storage (no Stripe)", () => {
  test("an admin sets a user's plan and hand-granted storage; setting it again replaces the grant", async ({ server }) => {
    const admin = await signUpAndSignIn(server, { role: "admin" });
    const target = await signUpAndSignIn(server);
    const res = await postForm(server, `/admin/users/${target.user.id}/plan`, { tier: "professional", addon_gb: "50" }, { cookie: admin.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/users");
    const quota = await getAccountQuota(server.ctx.db, target.teamId);
    expect({ tier: quota.tier, planGb: quota.planGb, addonGb: quota.addonGb }).toEqual({ tier: "professional", planGb: 100, addonGb: 50 });

    await postForm(server, `/admin/users/${target.user.id}/plan`, { tier: "free", addon_gb: "5" }, { cookie: admin.cookie });
    const after = await getAccountQuota(server.ctx.db, target.teamId);
    expect({ tier: after.tier, addonGb: after.addonGb }).toEqual({ tier: "free", addonGb: 5 });

    const page = await server.request("/admin/users", { headers: { Cookie: admin.cookie } });
    expect(await page.text()).toContain(`/admin/users/${target.user.id}/plan`);
  });

  test("refuses bad input with a message and changes nothing", async ({ server }) => {
    const admin = await signUpAndSignIn(server, { role: "admin" });
    const target = await signUpAndSignIn(server);
    for (const fields of [{ tier: "platinum", addon_gb: "0" }, { tier: "starter", addon_gb: "-1" }, { tier: "starter", addon_gb: "1.5" }, { tier: "starter", addon_gb: "abc" }]) {
      const res = await postForm(server, `/admin/users/${target.user.id}/plan`, fields, { cookie: admin.cookie });
      expect(res.status).toBe(302);
      expect(toastOf(res)).toMatch(/"type":"error"/);
    }
    const quota = await getAccountQuota(server.ctx.db, target.teamId);
    expect({ tier: quota.tier, addonGb: quota.addonGb }).toEqual({ tier: "free", addonGb: 0 });
  });

  test("a non-admin cannot change plans", async ({ server }) => {
    const user = await signUpAndSignIn(server);
    const res = await postForm(server, `/admin/users/${user.user.id}/plan`, { tier: "business", addon_gb: "1000" }, { cookie: user.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect((await getAccountQuota(server.ctx.db, user.teamId)).tier).toBe("free");
    const anonymous = await postForm(server, `/admin/users/${user.user.id}/plan`, { tier: "business" });
    expect(anonymous.headers.get("location")).toMatch(/^\/auth/);
  });
});
