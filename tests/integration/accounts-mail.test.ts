import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { sendMail } from "../../app/services/platform/mail.server.ts";
import { findUserByEmail } from "../../app/services/accounts/users.server.ts";
import { createSessionCookie, createTestUser, postForm, setCookies, uniqueEmail } from "../helpers/auth.ts";
import { linkIn, readOutbox, startLocalSmtp, waitForOutboxMail, type LocalSmtp } from "../helpers/mail.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;

test.beforeAll(async ({ server: started }) => {
  server = started;
});

const COOKIE = "stash_session";
const RESET_ANSWER = "If an account exists for that email, a password reset link is on its way. Check your inbox.";
const RESEND_ANSWER = "If that address has an account waiting for confirmation, a new link is on its way. Check your inbox.";

function signUp(target: TestServer, email: string, password = "secret12") {
  return postForm(target, "/auth", { intent: "signup", displayName: "Mail Tester", email, password });
}

function signIn(email: string, password: string) {
  return postForm(server, "/auth", { intent: "signin", email, password });
}

/** Follows a mailed link the way a browser does, without following the redirect after it. */
function open(target: TestServer, link: string) {
  const url = new URL(link);
  return target.request(`${url.pathname}${url.search}`, { redirect: "manual" });
}

describe("e-mail confirmation (outbox)", () => {
  it("mails a link that confirms the address, signs in and lands on /dashboard, once", async () => {
    const email = uniqueEmail("confirm");
    expect((await signUp(server, email)).status).toBe(302);
    const mail = await waitForOutboxMail(server.dataDir, email, "Confirm your Stash account");
    const link = linkIn(mail, "/auth/confirm");
    expect(link.startsWith(server.url)).toBe(true);

    const early = await signIn(email, "secret12");
    expect(early.status).toBe(403);
    expect(await early.text()).toContain("Please check your email and click the confirmation link before signing in.");

    const res = await open(server, link);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard");
    const cookie = setCookies(res)[COOKIE]!;
    expect(cookie.value).toMatch(/^[0-9A-Za-z]{43}$/);
    const page = await server.request("/dashboard", { headers: { Cookie: `${COOKIE}=${cookie.value}` } });
    expect(page.status).toBe(200);
    expect((await findUserByEmail(server.ctx.db, email))?.email_verified_at).not.toBeNull();

    const again = await open(server, link);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain("This confirmation link has already been used.");
    expect(setCookies(again)[COOKIE]).toBeUndefined();
    expect((await signIn(email, "secret12")).status).toBe(302);
  });

  it("explains an expired link and sends a new one from that page", async () => {
    const email = uniqueEmail("expired");
    await signUp(server, email);
    const old = linkIn(await waitForOutboxMail(server.dataDir, email), "/auth/confirm");
    const user = (await findUserByEmail(server.ctx.db, email))!;
    await server.ctx.db.updateTable("auth_tokens").set({ expires_at: new Date(Date.now() - 1000) }).where("user_id", "=", user.id).execute();

    const res = await open(server, old);
    expect(res.status).toBe(410);
    const html = await res.text();
    expect(html).toContain("This confirmation link has expired.");
    expect(html).toContain("Send a new link");

    const before = readOutbox(server.dataDir).length;
    const resend = await postForm(server, "/auth/confirm", { email });
    expect(resend.status).toBe(200);
    expect(await resend.text()).toContain(RESEND_ANSWER);
    await expect.poll(() => readOutbox(server.dataDir).length).toBe(before + 1);
    const fresh = linkIn(readOutbox(server.dataDir).at(-1)!, "/auth/confirm");
    expect(fresh).not.toBe(old);
    expect((await open(server, fresh)).headers.get("location")).toBe("/dashboard");
  });

  it("gives the same resend answer for unknown and confirmed addresses, and sends nothing", async () => {
    const { email: confirmed } = await createTestUser(server.ctx);
    const before = readOutbox(server.dataDir).length;
    for (const email of [uniqueEmail("nobody"), confirmed]) {
      const res = await postForm(server, "/auth/confirm", { email });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(RESEND_ANSWER);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readOutbox(server.dataDir).length).toBe(before);
  });

  it("rejects a malformed or unknown token and bad resend input", async () => {
    for (const token of ["", "x", "A".repeat(43), "<script>"]) {
      const res = await server.request(`/auth/confirm?token=${encodeURIComponent(token)}`, { redirect: "manual" });
      expect([200, 410]).toContain(res.status);
      expect(setCookies(res)[COOKIE]).toBeUndefined();
    }
    const bad = await server.request(`/auth/confirm?token=${"A".repeat(43)}`);
    expect(await bad.text()).toContain("This confirmation link is not valid.");
    const empty = await postForm(server, "/auth/confirm", { email: "" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please fill in all fields");
    const invalid = await postForm(server, "/auth/confirm", { email: "nope" });
    expect(await invalid.text()).toContain("Please enter a valid email address");
  });
});

describe("password reset", () => {
  it("answers the same for known and unknown addresses and mails only the known one", async () => {
    const { email } = await createTestUser(server.ctx);
    const before = readOutbox(server.dataDir).length;
    const known = await postForm(server, "/auth/forgot-password", { email });
    const unknown = await postForm(server, "/auth/forgot-password", { email: uniqueEmail("ghost") });
    expect(known.status).toBe(unknown.status);
    expect(await known.text()).toContain(RESET_ANSWER);
    expect(await unknown.text()).toContain(RESET_ANSWER);
    const mail = await waitForOutboxMail(server.dataDir, email, "Reset your Stash password");
    expect(linkIn(mail, "/auth/reset-password")).toContain("/auth/reset-password?token=");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readOutbox(server.dataDir).length).toBe(before + 1);
  });

  it("sets a new password, ends every other session and signs in; the link works once", async () => {
    const { user, email, password } = await createTestUser(server.ctx);
    const sessions = [await createSessionCookie(server.ctx, user.id), await createSessionCookie(server.ctx, user.id)];
    await postForm(server, "/auth/forgot-password", { email });
    const link = new URL(linkIn(await waitForOutboxMail(server.dataDir, email, "Reset"), "/auth/reset-password"));
    const token = link.searchParams.get("token")!;

    const form = await server.request(`${link.pathname}${link.search}`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("Choose a new password");

    const cases: Array<[Record<string, string>, string]> = [
      [{ password: "", confirmPassword: "" }, "Please fill in all fields"],
      [{ password: "12345", confirmPassword: "12345" }, "Password must be at least 6 characters long"],
      [{ password: "x".repeat(129), confirmPassword: "x".repeat(129) }, "Password must be at most 128 characters long"],
      [{ password: "newsecret1", confirmPassword: "newsecret2" }, "Passwords do not match"],
    ];
    for (const [fields, message] of cases) {
      const res = await postForm(server, link.pathname + link.search, { token, ...fields });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(message);
    }
    expect((await signIn(email, password)).status).toBe(302);

    const done = await postForm(server, link.pathname + link.search, { token, password: "newsecret1", confirmPassword: "newsecret1" });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/dashboard");
    expect(setCookies(done)[COOKIE]).toBeDefined();
    for (const { cookie } of sessions) {
      expect((await server.request("/dashboard", { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(302);
    }
    const remaining = await server.ctx.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
    expect(remaining).toHaveLength(1);
    expect((await signIn(email, password)).status).toBe(401);
    expect((await signIn(email, "newsecret1")).status).toBe(302);

    const reuse = await server.request(`${link.pathname}${link.search}`);
    expect(reuse.status).toBe(410);
    expect(await reuse.text()).toContain("This password reset link has already been used.");
    const replay = await postForm(server, link.pathname + link.search, { token, password: "another1", confirmPassword: "another1" });
    expect(replay.status).toBe(410);
    expect((await signIn(email, "newsecret1")).status).toBe(302);
  });

  it("rejects bad input, rate-limits per account, and refuses cross-site posts", async () => {
    const empty = await postForm(server, "/auth/forgot-password", { email: "" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please fill in all fields");
    expect(await (await postForm(server, "/auth/forgot-password", { email: "bad@" })).text()).toContain("Please enter a valid email address");

    const email = uniqueEmail("flood");
    for (let i = 0; i < 3; i++) expect((await postForm(server, "/auth/forgot-password", { email })).status).toBe(200);
    const limited = await postForm(server, "/auth/forgot-password", { email });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await limited.text()).toMatch(/Too many attempts\. Please wait \d+ minutes? and try again\./);

    const forged = await postForm(server, "/auth/forgot-password", { email }, { headers: { Origin: "https://evil.example" } });
    expect(forged.status).toBe(403);
  });

  it("rate-limits sign-ups per IP", async () => {
    const limited = await startTestServer();
    try {
      for (let i = 0; i < 10; i++) expect((await signUp(limited, uniqueEmail(`ip${i}`))).status).toBe(302);
      const res = await signUp(limited, uniqueEmail("one-too-many"));
      expect(res.status).toBe(429);
      expect(await res.text()).toMatch(/Too many attempts/);
    } finally {
      await limited.close();
    }
  });
});

describe("mail transport", () => {
  let smtp: LocalSmtp;
  let smtpServer: TestServer;

  beforeAll(async () => {
    smtp = await startLocalSmtp();
    smtpServer = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: "Stash Test <noreply@stash.test>" });
  });

  afterAll(async () => {
    await smtpServer?.close();
    await smtp?.close();
  });

  it("sends through SMTP when SMTP_URL is set, and writes no outbox file", async () => {
    const email = uniqueEmail("smtp");
    expect((await signUp(smtpServer, email)).status).toBe(302);
    const mail = await smtp.waitForMail(email, "Confirm your Stash account");
    expect(mail.raw).toMatch(/^From: Stash Test <noreply@stash\.test>/m);
    expect(readOutbox(smtpServer.dataDir)).toHaveLength(0);
    const res = await open(smtpServer, linkIn(mail, "/auth/confirm"));
    expect(res.headers.get("location")).toBe("/dashboard");
  });

  it("writes an .eml to the outbox and logs the link when there is no SMTP", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-mail-"));
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    try {
      const sent = await sendMail(
        { config: { dataDir, MAIL_FROM: "Stash <no-reply@localhost>", SMTP_URL: undefined }, logger },
        { to: "someone@example.com", subject: "Hello", text: "Open https://stash.test/x?token=abc", html: "<p>hi</p>", link: "https://stash.test/x?token=abc" },
      );
      expect(sent.file && fs.existsSync(sent.file)).toBe(true);
      expect(fs.readdirSync(path.join(dataDir, "outbox")).filter((n) => n.endsWith(".part"))).toHaveLength(0);
      const logged = JSON.parse(lines.at(-1)!);
      expect(logged).toMatchObject({ to: "someone@example.com", link: "https://stash.test/x?token=abc", file: sent.file });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
