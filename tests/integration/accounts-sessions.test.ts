import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { sha256Hex } from "../../app/services/platform/ids.server.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";
import { purgeExpiredSessions } from "../../app/services/accounts/session-purge.server.ts";
import { SESSION_TTL_MS } from "../../app/services/accounts/sessions.server.ts";
import { findUserByEmail } from "../../app/services/accounts/users.server.ts";
import { createTestUser, postForm, setCookies, signUpAndSignIn, uniqueEmail } from "../helpers/auth.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { findPersonalTeam } from "../../app/services/teams/teams.server.ts";
import type { UserId } from "../../app/lib/ids.ts";

let server: TestServer;

test.beforeAll(async ({ server: started }) => {
  server = started;
});

const COOKIE = "stash_session";

async function signIn(email: string, password: string, extra: Record<string, string> = {}) {
  return postForm(server, "/auth", { intent: "signin", email, password, ...extra });
}

async function sessionCount(userId: UserId) {
  const rows = await server.ctx.db.selectFrom("sessions").select("id").where("user_id", "=", userId).execute();
  return rows.length;
}

describe("guards", () => {
  it("sends a visitor on a portal page to /auth and remembers where they were", async () => {
    const res = await server.request("/dashboard?tab=x", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent("/dashboard?tab=x")}`);
  });

  it("lets a signed-in user in and sends them from /auth to /dashboard", async () => {
    const { cookie, email } = await signUpAndSignIn(server, { displayName: "Portal Person" });
    const page = await server.request("/dashboard", { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Portal Person");
    expect(html).toContain(email);
    const auth = await server.request("/auth", { headers: { Cookie: cookie }, redirect: "manual" });
    expect(auth.status).toBe(302);
    expect(auth.headers.get("location")).toBe("/dashboard");
  });

  it("treats a forged or malformed session cookie as a visitor", async () => {
    for (const value of ["nope", "A".repeat(43), "x;y", ""]) {
      const res = await server.request("/dashboard", { headers: { Cookie: `${COOKIE}=${value}` }, redirect: "manual" });
      expect(res.status).toBe(302);
    }
  });
});

describe("sign-in", () => {
  it("starts a database session whose cookie holds only a random token", async () => {
    const { user, email, password } = await createTestUser(server.ctx);
    const res = await signIn(email, password, { redirectTo: "/dashboard?from=test" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard?from=test");
    const cookie = setCookies(res)[COOKIE]!;
    expect(cookie.raw).toMatch(/HttpOnly/);
    expect(cookie.raw).toMatch(/SameSite=Lax/);
    expect(cookie.raw).toMatch(new RegExp(`Max-Age=${SESSION_TTL_MS / 1000}`));
    expect(cookie.raw).not.toMatch(/Secure/);
    expect(cookie.value).toMatch(/^[0-9A-Za-z]{43}$/);
    const row = await server.ctx.db.selectFrom("sessions").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.id).toBe(sha256Hex(cookie.value));
    expect(row.id).not.toContain(cookie.value);
    expect(new Date(row.expires_at).getTime() - Date.now()).toBeGreaterThan(SESSION_TTL_MS - 60_000);
    expect(setCookies(res).stash_toast).toBeDefined();
    const after = await findUserByEmail(server.ctx.db, email);
    expect(after?.last_sign_in_at).not.toBeNull();
  });

  it("issues a new session id at every sign-in", async () => {
    const { user, email, password } = await createTestUser(server.ctx);
    const a = setCookies(await signIn(email, password))[COOKIE]!.value;
    const b = setCookies(await signIn(email, password))[COOKIE]!.value;
    expect(a).not.toBe(b);
    expect(await sessionCount(user.id)).toBe(2);
  });

  it("never sends anyone off-site after signing in", async () => {
    const { email, password } = await createTestUser(server.ctx);
    for (const redirectTo of ["//evil.example/x", "https://evil.example", "/\\evil.example"]) {
      const res = await signIn(email, password, { redirectTo });
      expect(res.headers.get("location")).toBe("/dashboard");
    }
  });

  it("answers a wrong password and an unknown address with the same message, and starts no session", async () => {
    const { user, email } = await createTestUser(server.ctx);
    const wrong = await signIn(email, "not the password");
    const unknown = await signIn(uniqueEmail("ghost"), "whatever1");
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(await res.text()).toContain("Invalid email or password. Please check your credentials and try again.");
      expect(setCookies(res)[COOKIE]).toBeUndefined();
    }
    expect(await sessionCount(user.id)).toBe(0);
  });

  it("refuses an unconfirmed address with the spec's message (only after the right password)", async () => {
    const { user, email, password } = await createTestUser(server.ctx, { verified: false });
    const res = await signIn(email, password);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Please check your email and click the confirmation link before signing in.");
    expect(await sessionCount(user.id)).toBe(0);
    expect((await signIn(email, "wrong password")).status).toBe(401);
  });

  it("validates the fields", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ email: "", password: "" }, "Please fill in all fields"],
      [{ email: "a@b.co", password: "" }, "Please fill in all fields"],
      [{ email: "not-an-email", password: "secret1" }, "Please enter a valid email address"],
      [{ email: "<script>x</script>", password: "secret1" }, "Please fill in all fields"],
    ];
    for (const [fields, message] of cases) {
      const res = await postForm(server, "/auth", { intent: "signin", ...fields });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(message);
    }
  });

  it("rate-limits failed attempts on one account, even with the right password afterwards", async () => {
    const { email, password } = await createTestUser(server.ctx);
    for (let i = 0; i < 10; i++) expect((await signIn(email, `wrong-${i}`)).status).toBe(401);
    const res = await signIn(email, password);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await res.text()).toMatch(/Too many attempts\. Please wait \d+ minutes? and try again\./);
  });
});

describe("sign-up", () => {
  it("creates an unconfirmed account with a sanitised display name and a toast", async () => {
    const email = uniqueEmail("new");
    const res = await postForm(server, "/auth", {
      intent: "signup",
      displayName: "  <b>Ada</b> Lovelace<script>alert(1)</script> ",
      email: `  ${email.toUpperCase()} `,
      password: "secret1",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth");
    expect(setCookies(res)[COOKIE]).toBeUndefined();
    const user = await findUserByEmail(server.ctx.db, email);
    expect(user).toMatchObject({ email, display_name: "Ada Lovelace", role: "user", email_verified_at: null });
    const team = await findPersonalTeam(server.ctx.db, user!.id);
    const usage = team && (await server.ctx.db.selectFrom("account_usage").selectAll().where("team_id", "=", team).executeTakeFirst());
    expect(usage).toBeDefined();
  });

  it("rejects bad input and changes nothing", async () => {
    const email = uniqueEmail("bad");
    const cases: Array<[Record<string, string>, string]> = [
      [{ displayName: "", email, password: "secret1" }, "Please fill in all fields"],
      [{ displayName: "<script>alert(1)</script>", email, password: "secret1" }, "Display name can only be plain text: tags and scripts are removed"],
      [{ displayName: "Al", email: "nope@", password: "secret1" }, "Please enter a valid email address"],
      [{ displayName: "Al", email, password: "12345" }, "Password must be at least 6 characters long"],
      [{ displayName: "Al", email, password: "x".repeat(129) }, "Password must be at most 128 characters long"],
      [{ displayName: "A", email, password: "secret1" }, "Display name must be at least 2 characters long"],
    ];
    for (const [fields, message] of cases) {
      const res = await postForm(server, "/auth", { intent: "signup", ...fields });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(message);
    }
    expect(await findUserByEmail(server.ctx.db, email)).toBeUndefined();
  });

  it("says when the address already has an account", async () => {
    const { email } = await createTestUser(server.ctx);
    const res = await postForm(server, "/auth", { intent: "signup", displayName: "Dup", email, password: "secret1" });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("An account with this email already exists. Please sign in instead.");
  });
});

describe("sessions", () => {
  it("signs out: revokes the session, clears the cookie and says so", async () => {
    const { user, cookie } = await signUpAndSignIn(server);
    const res = await postForm(server, "/auth/sign-out", {}, { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth");
    expect(setCookies(res)[COOKIE]!.raw).toMatch(/Max-Age=0/);
    expect(decodeURIComponent(setCookies(res).stash_toast!.value)).toBeTruthy();
    expect(await sessionCount(user.id)).toBe(0);
    const again = await server.request("/dashboard", { headers: { Cookie: cookie }, redirect: "manual" });
    expect(again.status).toBe(302);
  });

  it("does not sign out on a GET", async () => {
    const { user, cookie } = await signUpAndSignIn(server);
    const res = await server.request("/auth/sign-out", { headers: { Cookie: cookie }, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(await sessionCount(user.id)).toBe(1);
  });

  it("rolls the 30-day expiry forward and re-sends the cookie", async () => {
    const { user, cookie, token } = await signUpAndSignIn(server);
    const soon = new Date(Date.now() + 10 * 24 * 3600 * 1000);
    await server.ctx.db.updateTable("sessions").set({ expires_at: soon }).where("user_id", "=", user.id).execute();
    const res = await server.request("/dashboard", { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    const resent = setCookies(res)[COOKIE]!;
    expect(resent.value).toBe(token);
    expect(resent.raw).toMatch(/Max-Age=259\d{4}/);
    const row = await server.ctx.db.selectFrom("sessions").select("expires_at").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now() + SESSION_TTL_MS - 60_000);
  });

  it("forgets an expired session", async () => {
    const { user, cookie } = await signUpAndSignIn(server);
    await server.ctx.db.updateTable("sessions").set({ expires_at: new Date(Date.now() - 1000) }).where("user_id", "=", user.id).execute();
    const res = await server.request("/dashboard", { headers: { Cookie: cookie }, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(await sessionCount(user.id)).toBe(0);
  });
});

/** Session rows as sign-ins leave them, expired `agoMs` ago (negative: still live). */
async function insertSessions(userId: UserId, count: number, agoMs: number) {
  const rows = Array.from({ length: count }, () => ({ id: sha256Hex(randomBytes(32).toString("hex")), user_id: userId, expires_at: new Date(Date.now() - agoMs) }));
  await server.ctx.db.insertInto("sessions").values(rows).execute();
  return rows.map((r) => r.id);
}

async function countSessions(which: "expired" | "live", at: Date) {
  const row = await server.ctx.db
    .selectFrom("sessions")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("expires_at", which === "expired" ? "<=" : ">", at)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A purge time twenty minutes ahead, with every row already due by then cleared, so a test's purge
 * counts only the rows it inserted to expire within the next ten minutes.
 */
async function purgeClock(): Promise<{ at: Date; dueIn: number }> {
  const at = new Date(Date.now() + 20 * 60_000);
  await purgeExpiredSessions(server.ctx.db, at);
  return { at, dueIn: -10 * 60_000 };
}

describe("expired session purge", () => {
  it("deletes every session past its expiry, batch after batch, and keeps live ones signed in", async () => {
    const { user, cookie } = await signUpAndSignIn(server);
    const { at, dueIn } = await purgeClock();
    await insertSessions(user.id, 2345, dueIn);
    await insertSessions(user.id, 2, -3_600_000);
    expect(await countSessions("expired", at)).toBe(2345);
    const live = await countSessions("live", at);

    expect(await purgeExpiredSessions(server.ctx.db, at)).toBe(2345);
    expect(await countSessions("expired", at)).toBe(0);
    expect(await countSessions("live", at)).toBe(live);
    expect(await sessionCount(user.id)).toBe(3);
    const page = await server.request("/dashboard", { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(await purgeExpiredSessions(server.ctx.db, at)).toBe(0);
  });

  it("is safe to run from several instances at once: each row is deleted by exactly one of them", async () => {
    const { user } = await createTestUser(server.ctx);
    const { at, dueIn } = await purgeClock();
    await insertSessions(user.id, 3000, dueIn);
    const counts = await Promise.all(Array.from({ length: 4 }, () => purgeExpiredSessions(server.ctx.db, at)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3000);
    expect(await sessionCount(user.id)).toBe(0);
  });

  it("runs as the session-purge background job", async () => {
    const { user } = await createTestUser(server.ctx);
    await insertSessions(user.id, 3, 1000);
    const [live] = await insertSessions(user.id, 1, -3_600_000);
    await server.runJob(BACKGROUND_JOBS.sessionPurge);
    expect(await sessionCount(user.id)).toBe(1);
    const left = await server.ctx.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
    expect(left.map((r) => r.id)).toEqual([live]);
  });

});

describe("cross-site requests", () => {
  it("refuses forms posted from another site with 403 and does nothing", async () => {
    const { user, email, password, cookie } = await signUpAndSignIn(server);
    const evilOrigin = await postForm(server, "/auth", { intent: "signin", email, password }, { headers: { Origin: "https://evil.example" } });
    const crossSite = await postForm(server, "/auth/sign-out", {}, { cookie, headers: { "Sec-Fetch-Site": "cross-site" } });
    const nullOrigin = await postForm(server, "/auth", { intent: "signup", displayName: "Evil", email: uniqueEmail(), password: "secret1" }, { headers: { Origin: "null" } });
    for (const res of [evilOrigin, crossSite, nullOrigin]) expect(res.status).toBe(403);
    expect(await sessionCount(user.id)).toBe(1);
  });
});

describe("production cookie", () => {
  it("is Secure and __Host- prefixed when COOKIE_SECURE is on", async () => {
    const secure = await startTestServer({ COOKIE_SECURE: "true" });
    try {
      const { email, password } = await createTestUser(secure.ctx);
      const res = await postForm(secure, "/auth", { intent: "signin", email, password });
      const cookie = setCookies(res)["__Host-stash_session"]!;
      expect(cookie.raw).toMatch(/; Secure/);
      expect(cookie.raw).toMatch(/Path=\//);
      expect(cookie.raw).not.toMatch(/Domain=/);
      const page = await secure.request("/dashboard", { headers: { Cookie: `__Host-stash_session=${cookie.value}` } });
      expect(page.status).toBe(200);
    } finally {
      await secure.close();
    }
  });
});
