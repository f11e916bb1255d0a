import { afterAll, beforeAll, describe, expect } from "vitest";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { verifyCredentials } from "../../app/services/accounts/password-accounts.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { postForm, readToast, setCookies, signUpAndSignIn, uniqueEmail, type SignedInUser } from "../helpers/auth.ts";
import { PRICE_STARTER, startFakeStripe, stripeEnv } from "../helpers/billing.ts";
import type { FakeStripe } from "../helpers/fake-stripe.ts";
import { stashTest } from "../helpers/fixtures.ts";
import { linkIn, waitForOutboxMail } from "../helpers/mail.ts";
import type { TestServer } from "../helpers/server.ts";
import { gameScreenshot } from "../helpers/images.ts";
import { form } from "../helpers/upload-fixtures.ts";
import type { UserId } from "../../app/lib/ids.ts";

let fake: FakeStripe;
let server: TestServer;
const test = stashTest(() => stripeEnv(fake));

beforeAll(async () => {
  fake = await startFakeStripe();
});
test.beforeAll(async ({ server: started }) => {
  server = started;
});
afterAll(async () => {
  await fake?.close();
});

const settings = (who: SignedInUser, fields: Record<string, string>) => postForm(server, "/settings", fields, { cookie: who.cookie });
const settingsPage = (cookie: string) => server.request("/settings", { headers: { Cookie: cookie }, redirect: "manual" });
const userRow = (id: UserId) => server.ctx.db.selectFrom("users").select(["email", "email_verified_at"]).where("id", "=", id).executeTakeFirst();

describe("settings: e-mail change", () => {
  test("a link to the new address moves the account; until then the old address signs in", async () => {
    const who = await signUpAndSignIn(server, { password: "password one 1" });
    const other = await signUpAndSignIn(server);
    const newEmail = uniqueEmail("moved");

    const refusals: [Record<string, string>, number, string][] = [
      [{ newEmail: "", currentPassword: "password one 1" }, 400, "Please fill in all fields"],
      [{ newEmail: "not-an-address", currentPassword: "password one 1" }, 400, "valid email"],
      [{ newEmail, currentPassword: "wrong password" }, 401, "Your current password is not correct"],
      [{ newEmail: other.email, currentPassword: "password one 1" }, 409, "That email address belongs to another account"],
      [{ newEmail: who.email.toUpperCase(), currentPassword: "password one 1" }, 400, "That is already your email address"],
    ];
    for (const [fields, status, message] of refusals) {
      const res = await settings(who, { intent: "changeEmail", ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(status);
      expect(readToast(res)?.description ?? "").toContain(message);
    }
    expect(await server.ctx.db.selectFrom("auth_tokens").select("id").where("user_id", "=", who.user.id).where("purpose", "=", "email_change").execute()).toEqual([]);

    const res = await settings(who, { intent: "changeEmail", newEmail: `  ${newEmail.toUpperCase()} `, currentPassword: "password one 1" });
    expect(res.status).toBe(200);
    expect(readToast(res)).toMatchObject({ type: "success", title: "Check your new inbox" });
    expect((await userRow(who.user.id))?.email).toBe(who.email);
    expect((await verifyCredentials(server.ctx.db, who.email, "password one 1")).id).toBe(who.user.id);

    const mail = await waitForOutboxMail(server.dataDir, newEmail, "Confirm your new");
    const link = new URL(linkIn(mail, "/auth/confirm-email-change"));
    const followed = await server.request(link.pathname + link.search, { redirect: "manual" });
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe("/settings");
    expect(readToast(followed)).toMatchObject({ title: "Email updated" });
    expect((await userRow(who.user.id))?.email).toBe(newEmail);
    expect((await verifyCredentials(server.ctx.db, newEmail, "password one 1")).id).toBe(who.user.id);
    await expect(verifyCredentials(server.ctx.db, who.email, "password one 1")).rejects.toMatchObject({ code: "invalid_credentials" });
    expect(await (await settingsPage(who.cookie)).text()).toContain(newEmail);

    const again = await server.request(link.pathname + link.search, { redirect: "manual" });
    expect(again.status).toBe(410);
    expect(await again.text()).toContain("This link has already been used.");
  });

  test("an address taken between the request and the click is not stolen", async () => {
    const who = await signUpAndSignIn(server, { password: "password one 1" });
    const wanted = uniqueEmail("contested");
    expect((await settings(who, { intent: "changeEmail", newEmail: wanted, currentPassword: "password one 1" })).status).toBe(200);
    const link = new URL(linkIn(await waitForOutboxMail(server.dataDir, wanted, "Confirm your new"), "/auth/confirm-email-change"));
    await signUpAndSignIn(server, { email: wanted });
    const res = await server.request(link.pathname + link.search, { redirect: "manual" });
    expect(res.status).toBe(410);
    expect(await res.text()).toContain("Another account started using that address");
    expect((await userRow(who.user.id))?.email).toBe(who.email);
  });
});

async function ownerWithFiles() {
  const who = await signUpAndSignIn(server, { password: "password one 1" });
  const gameServer = await createServer(server.ctx.db, { teamId: who.teamId, name: "Doomed RP" });
  const { secret } = await createApiKey(server.ctx.db, { serverId: gameServer.id, teamId: who.teamId, name: "game" });
  const urls: string[] = [];
  for (const [i, name] of ["a.jpg", "b.jpg"].entries()) {
    const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": secret }, body: form([{ field: "file", data: await gameScreenshot(320, 180, i + 1, "jpeg"), filename: name }]) });
    expect(res.status).toBe(201);
    urls.push(((await res.json()) as { url: string }).url);
  }
  const customer = `cus_${who.user.id.slice(0, 8)}`;
  const sub = fake.setSubscription({ id: `sub_${who.user.id}`, customer, priceId: PRICE_STARTER, metadata: { team_id: who.teamId } });
  await server.ctx.db
    .updateTable("subscriptions")
    .set({ tier: "starter", status: "active", stripe_customer_id: customer, stripe_subscription_id: sub.id })
    .where("team_id", "=", who.teamId)
    .execute();
  const keys = await server.ctx.db.selectFrom("files").select("storage_key").where("team_id", "=", who.teamId).execute();
  return { who, secret, urls, sub, storageKeys: keys.map((k) => k.storage_key) };
}

describe("settings: delete account", () => {
  test("refusals change nothing; a confirmed delete cancels the subscription and removes servers, files, blobs, keys and sessions", async () => {
    const { who, secret, urls, sub, storageKeys } = await ownerWithFiles();
    const del = (fields: Record<string, string>) => settings(who, { intent: "deleteAccount", ...fields });

    expect((await del({ confirmPhrase: "delete", currentPassword: "password one 1" })).status).toBe(400);
    expect((await del({ confirmPhrase: "delete my account", currentPassword: "nope" })).status).toBe(401);
    fake.failCancels = true;
    const stripeDown = await del({ confirmPhrase: "delete my account", currentPassword: "password one 1" });
    fake.failCancels = false;
    expect(stripeDown.status).toBe(502);
    expect(readToast(stripeDown)?.description).toContain("nothing was deleted");
    expect(await userRow(who.user.id)).toBeDefined();
    for (const url of urls) expect((await fetch(url)).status).toBe(200);
    expect(fake.subscriptions.get(sub.id)?.status).toBe("active");

    const res = await del({ confirmPhrase: " Delete My Account ", currentPassword: "password one 1" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(readToast(res)).toMatchObject({ type: "success", title: "Account deleted" });
    expect(Object.values(setCookies(res)).some((c) => /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c.raw))).toBe(true);

    expect(fake.subscriptions.get(sub.id)?.status).toBe("canceled");
    expect(await userRow(who.user.id)).toBeUndefined();
    for (const table of ["teams", "servers", "files", "api_keys", "subscriptions"] as const) {
      const column = table === "teams" ? "id" : "team_id";
      expect(await server.ctx.db.selectFrom(table).select(column).where(column, "=", who.teamId).execute(), table).toEqual([]);
    }
    expect(await server.ctx.db.selectFrom("sessions").select("id").where("user_id", "=", who.user.id).execute()).toEqual([]);
    for (const key of storageKeys) expect(await server.ctx.blobs.get(key)).toBeNull();
    for (const url of urls) expect((await fetch(url)).status).toBe(404);
    expect((await settingsPage(who.cookie)).status).toBe(302);
    const upload = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": secret }, body: form([{ field: "file", data: await gameScreenshot(64, 64, 3, "jpeg"), filename: "c.jpg" }]) });
    expect(upload.status).toBe(401);
  });
});
