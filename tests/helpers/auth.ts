import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, BrowserContextOptions } from "playwright-core";
import type { Role, User } from "../../db/schema.ts";
import type { AppContext } from "../../app/services/app-context.server.ts";
import { createSession, sessionCookieName } from "../../app/services/accounts/sessions.server.ts";
import { createUser } from "../../app/services/accounts/users.server.ts";
import { findPersonalTeam } from "../../app/services/teams/teams.server.ts";
import type { TeamId, UserId } from "../../app/lib/ids.ts";
import type { TestServer } from "./server.ts";

export interface TestUserOptions {
  email?: string;
  password?: string;
  displayName?: string;
  role?: Role;
  /** E-mail confirmed (default true, so the user can sign in with a password right away). */
  verified?: boolean;
}

export interface SignedInUser {
  user: User;
  /** The team made with the account (its id is its own, never the user's). */
  teamId: TeamId;
  email: string;
  password: string;
  /** Value for a `Cookie` request header. */
  cookie: string;
  /** The raw session token (the cookie's value). */
  token: string;
}

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomBytes(5).toString("hex")}@example.com`;
}

export async function createTestUser(ctx: AppContext, options: TestUserOptions = {}) {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? "correct horse battery";
  const user = await createUser(ctx.db, {
    email,
    password,
    displayName: options.displayName,
    role: options.role,
    verified: options.verified ?? true,
  });
  const teamId = await findPersonalTeam(ctx.db, user.id);
  if (!teamId) throw new Error("a new account has no team");
  return { user, email, password, teamId };
}

/** A session for `userId` exactly as a sign-in makes one; returns a `Cookie` header value. */
export async function createSessionCookie(ctx: AppContext, userId: UserId): Promise<{ cookie: string; token: string }> {
  const session = await createSession(ctx.db, { userId, ip: "127.0.0.1", userAgent: "stash-tests" });
  return { cookie: `${sessionCookieName(ctx.config)}=${session.token}`, token: session.token };
}

/** A confirmed account with a live session: the quickest way for a test to be signed in. */
export async function signUpAndSignIn(server: TestServer, options: TestUserOptions = {}): Promise<SignedInUser> {
  const created = await createTestUser(server.ctx, options);
  const session = await createSessionCookie(server.ctx, created.user.id);
  return { ...created, ...session };
}

/** A Playwright context that already carries `signedIn`'s session cookie. */
export async function signedInBrowserContext(
  browser: Browser,
  server: TestServer,
  signedIn: SignedInUser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const url = new URL(server.url);
  await context.addCookies([
    {
      name: sessionCookieName(server.ctx.config),
      value: signedIn.token,
      domain: url.hostname,
      path: "/",
      httpOnly: true,
      sameSite: "Lax",
      secure: server.ctx.config.cookieSecure,
    },
  ]);
  return context;
}

/** POSTs a form the way a same-origin browser form does (Origin set, redirects not followed). */
export function postForm(
  server: TestServer,
  pathname: string,
  fields: Record<string, string | string[]>,
  options: { cookie?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
  return server.request(pathname, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: server.url,
      ...(options.cookie ? { Cookie: options.cookie } : {}),
      ...options.headers,
    },
    body: body.toString(),
  });
}

/** The `name=value` pairs of a response's Set-Cookie headers. */
export function setCookies(res: Response): Record<string, { value: string; raw: string }> {
  const out: Record<string, { value: string; raw: string }> = {};
  for (const raw of res.headers.getSetCookie()) {
    const [pair] = raw.split(";");
    const eq = pair!.indexOf("=");
    out[pair!.slice(0, eq)] = { value: pair!.slice(eq + 1), raw };
  }
  return out;
}

/** The flash toast a response sets (see app/http/toast.server.ts), or null. */
export function readToast(res: Response): { type: string; title: string; description?: string } | null {
  const value = setCookies(res).stash_toast?.value;
  if (!value) return null;
  return JSON.parse(Buffer.from(decodeURIComponent(value), "base64").toString("utf8"));
}
