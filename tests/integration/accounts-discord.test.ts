import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail, findUserById } from "../../app/services/accounts/users.server.ts";
import { createTestUser, postForm, readToast, setCookies, signUpAndSignIn } from "../helpers/auth.ts";
import { startFakeDiscord, type FakeDiscord, type FakeDiscordUser } from "../helpers/discord.ts";
import { stashTest } from "../helpers/fixtures.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let discord: FakeDiscord;
let server: TestServer;

// The Discord stand-in starts first; the fixture's server is pointed at it.
const test = stashTest(() => discord.env);

beforeAll(async () => {
  discord = await startFakeDiscord();
});

test.beforeAll(async ({ server: started }) => {
  server = started;
});

afterAll(async () => {
  await discord?.close();
});

/** A tiny cookie jar: enough to carry the state, intent and session cookies through the round trip. */
class Jar {
  private cookies = new Map<string, string>();
  constructor(initial?: string) {
    if (initial) for (const pair of initial.split("; ")) this.cookies.set(pair.split("=")[0]!, pair.slice(pair.indexOf("=") + 1));
  }
  take(res: Response) {
    for (const [name, { value, raw }] of Object.entries(setCookies(res))) {
      if (/Max-Age=0/.test(raw) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  get(name: string) {
    return this.cookies.get(name);
  }
}

/** Runs the browser's part of the OAuth round trip; returns the callback's response. */
async function roundTrip(as: FakeDiscordUser, options: { intent?: string; jar?: Jar; tamper?: (callback: URL) => void } = {}) {
  discord.signInAs(as);
  const jar = options.jar ?? new Jar();
  const start = await postForm(server, "/auth/discord", { intent: options.intent ?? "signin", redirectTo: "/dashboard" }, { cookie: jar.header() });
  expect(start.status).toBe(302);
  jar.take(start);
  const authorize = new URL(start.headers.get("location")!);
  expect(authorize.origin).toBe(discord.url);
  expect(authorize.searchParams.get("state")).toBeTruthy();
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  const approved = await fetch(authorize, { redirect: "manual" });
  const callback = new URL(approved.headers.get("location")!);
  options.tamper?.(callback);
  const res = await server.request(`${callback.pathname}${callback.search}`, { headers: { Cookie: jar.header() }, redirect: "manual" });
  jar.take(res);
  return { res, jar };
}

async function identityCount(providerUserId: string) {
  return (await server.ctx.db.selectFrom("identities").select("id").where("provider_user_id", "=", providerUserId).execute()).length;
}

describe("Discord sign-in", () => {
  it("creates the account from the Discord profile on first sign-in and finds it by id later", async () => {
    const profile = { id: "555001", username: "neo", global_name: "Neo Anderson", avatar: "abc123", email: "neo@discord.test", verified: true };
    const { res, jar } = await roundTrip(profile);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard");
    expect(readToast(res)?.title).toBe("Welcome!");
    const user = (await findUserByEmail(server.ctx.db, "neo@discord.test"))!;
    expect(user).toMatchObject({
      display_name: "Neo Anderson",
      avatar_url: "https://cdn.discordapp.com/avatars/555001/abc123.png",
      password_hash: null,
      role: "user",
    });
    expect(user.email_verified_at).not.toBeNull();
    expect(await server.request("/dashboard", { headers: { Cookie: jar.header() } }).then((r) => r.status)).toBe(200);

    const again = await roundTrip({ ...profile, username: "neo2", email: "changed@discord.test" });
    expect(readToast(again.res)?.title).toBe("Welcome back!");
    expect(again.jar.get("stash_session")).not.toBe(jar.get("stash_session"));
    const sessions = await server.ctx.db.selectFrom("sessions").select("user_id").where("user_id", "=", user.id).execute();
    expect(sessions).toHaveLength(2);
    expect(await identityCount("555001")).toBe(1);
  });

  it("creates an account without an address when Discord's is unverified", async () => {
    const { res } = await roundTrip({ id: "555002", username: "trinity", email: "t@discord.test", verified: false });
    expect(res.headers.get("location")).toBe("/dashboard");
    const identity = await server.ctx.db.selectFrom("identities").select("user_id").where("provider_user_id", "=", "555002").executeTakeFirstOrThrow();
    const user = await findUserById(server.ctx.db, identity.user_id);
    expect(user).toMatchObject({ email: null, display_name: "trinity", avatar_url: null });
  });

  it("never merges a Discord e-mail into an existing local account", async () => {
    const { user, email } = await createTestUser(server.ctx);
    const before = (await server.ctx.db.selectFrom("users").select("id").execute()).length;
    const { res, jar } = await roundTrip({ id: "555003", username: "morpheus", email, verified: true });
    expect(res.headers.get("location")).toBe("/auth");
    expect(readToast(res)).toEqual({
      type: "error",
      title: "Discord sign-in failed",
      description: "An account with this Discord email already exists. Sign in with your email and password, then link Discord in Settings.",
    });
    expect(jar.get("stash_session")).toBeUndefined();
    expect(await identityCount("555003")).toBe(0);
    expect((await server.ctx.db.selectFrom("users").select("id").execute()).length).toBe(before);
    expect((await findUserById(server.ctx.db, user.id))?.avatar_url).toBeNull();
  });

  it("refuses a callback whose state does not match, or that lacks the state cookie", async () => {
    const tampered = await roundTrip({ id: "555004", username: "smith" }, { tamper: (u) => u.searchParams.set("state", "forged") });
    expect(tampered.res.headers.get("location")).toBe("/auth");
    expect(readToast(tampered.res)?.description).toBe("The Discord sign-in request expired or did not match. Please try again.");
    expect(tampered.jar.get("stash_session")).toBeUndefined();

    const cold = await server.request("/auth/discord/callback?code=abc&state=xyz", { redirect: "manual" });
    expect(cold.headers.get("location")).toBe("/auth");
    expect(setCookies(cold).stash_session).toBeUndefined();
    expect(await identityCount("555004")).toBe(0);
  });

  it("shows the provider's message when Discord reports an error", async () => {
    const { res } = await roundTrip(
      { id: "555005", username: "oracle" },
      {
        tamper: (u) => {
          u.searchParams.delete("code");
          u.searchParams.set("error", "access_denied");
          u.searchParams.set("error_description", "The resource owner or authorization server denied the request");
        },
      },
    );
    expect(readToast(res)).toMatchObject({ type: "error", description: "The resource owner or authorization server denied the request" });
  });

  it("shows the Discord button only when Discord is configured", async () => {
    expect(await (await server.request("/auth")).text()).toContain("Continue with Discord");
    const plain = await startTestServer();
    try {
      expect(await (await plain.request("/auth")).text()).not.toContain("Continue with Discord");
      const member = await signUpAndSignIn(plain);
      const settings = await (await plain.request("/settings", { headers: { Cookie: member.cookie } })).text();
      expect(settings).not.toContain("Link Discord");
      expect(settings).toContain("Discord sign-in is not available on this server.");
      const start = await postForm(plain, "/auth/discord", { intent: "signin" });
      expect(start.headers.get("location")).toBe("/auth");
    } finally {
      await plain.close();
    }
  });
});

describe("Settings → Connected Accounts", () => {
  it("links Discord to the signed-in account, shows it, and unlinks it", async () => {
    const member = await signUpAndSignIn(server, { displayName: "Linker" });
    const jar = new Jar(member.cookie);
    const { res } = await roundTrip({ id: "555100", username: "linkme", avatar: "av1" }, { intent: "link", jar });
    expect(res.headers.get("location")).toBe("/settings");
    expect(readToast(res)).toEqual({ type: "success", title: "Discord linked successfully!" });
    const identity = await server.ctx.db.selectFrom("identities").selectAll().where("provider_user_id", "=", "555100").executeTakeFirstOrThrow();
    expect(identity.user_id).toBe(member.user.id);
    expect((await findUserById(server.ctx.db, member.user.id))?.avatar_url).toBe("https://cdn.discordapp.com/avatars/555100/av1.png");

    const page = await (await server.request("/settings", { headers: { Cookie: member.cookie } })).text();
    for (const text of ["Change it under Email address below.", "Change email", "Delete account", "Save name", member.user.id, "Linked as linkme", "Discord Linked", "Email Account", "Unlink Discord"]) {
      expect(page).toContain(text);
    }

    const login = await roundTrip({ id: "555100", username: "linkme" });
    expect(login.res.headers.get("location")).toBe("/dashboard");
    const sessionOwner = await server.ctx.db.selectFrom("sessions").select("user_id").orderBy("created_at", "desc").executeTakeFirstOrThrow();
    expect(sessionOwner.user_id).toBe(member.user.id);

    const unlink = await postForm(server, "/settings", { intent: "unlinkDiscord" }, { cookie: member.cookie });
    expect(readToast(unlink)).toEqual({ type: "success", title: "Discord unlinked" });
    expect(await identityCount("555100")).toBe(0);
    const again = await postForm(server, "/settings", { intent: "unlinkDiscord" }, { cookie: member.cookie });
    expect(readToast(again)).toEqual({ type: "error", title: "Failed to unlink Discord", description: "No Discord account linked" });
  });

  it("refuses to link a Discord account that belongs to someone else", async () => {
    await roundTrip({ id: "555200", username: "taken" });
    const member = await signUpAndSignIn(server);
    const { res } = await roundTrip({ id: "555200", username: "taken" }, { intent: "link", jar: new Jar(member.cookie) });
    expect(res.headers.get("location")).toBe("/settings");
    expect(readToast(res)).toEqual({
      type: "error",
      title: "Failed to link Discord",
      description: "This Discord account is already linked to another account.",
    });
  });

  it("refuses to unlink the only way to sign in", async () => {
    const { jar } = await roundTrip({ id: "555300", username: "onlydiscord" });
    const cookie = `stash_session=${jar.get("stash_session")}`;
    const page = await (await server.request("/settings", { headers: { Cookie: cookie } })).text();
    expect(page).toContain("OAuth Account");
    const res = await postForm(server, "/settings", { intent: "unlinkDiscord" }, { cookie });
    expect(readToast(res)).toEqual({
      type: "error",
      title: "Failed to unlink Discord",
      description: "Discord is the only way to sign in to this account, so it cannot be unlinked.",
    });
    expect(await identityCount("555300")).toBe(1);
  });

  it("needs a signed-in session to link, and a same-site form", async () => {
    const res = await postForm(server, "/auth/discord", { intent: "link" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
    const forged = await postForm(server, "/auth/discord", { intent: "signin" }, { headers: { Origin: "https://evil.example" } });
    expect(forged.status).toBe(403);
    const visitor = await server.request("/settings", { redirect: "manual" });
    expect(visitor.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent("/settings")}`);
  });
});
