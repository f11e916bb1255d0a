import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { createTestUser, signedInBrowserContext, signUpAndSignIn, uniqueEmail } from "../helpers/auth.ts";
import { linkIn, waitForOutboxMail } from "../helpers/mail.ts";
import { screenshotPath } from "../helpers/browser.ts";
import type { TestServer } from "../helpers/server.ts";

let server: TestServer;
let browser: Browser;

test.beforeAll(async ({ server: started, browser: launched }) => {
  server = started;
  browser = launched;
});

async function fillSignIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

describe("accounts in the browser", { timeout: 120_000 }, () => {
  it("a new user signs up, confirms from the mailed link, lands on /dashboard, signs out and signs in", async () => {
    const email = uniqueEmail("newcomer");
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/auth`);
    await page.getByRole("tab", { name: "Sign Up" }).click();
    // Markup pasted into the name is removed at once, and the field says why it emptied.
    await page.getByLabel("Display Name").fill("<script>alert(1)</script>");
    expect(await page.getByLabel("Display Name").inputValue()).toBe("");
    expect(await page.getByRole("status").filter({ hasText: "tags and scripts are removed" }).isVisible()).toBe(true);
    await page.getByLabel("Display Name").fill("Nova Newcomer");
    expect(await page.getByText("tags and scripts are removed").count()).toBe(0);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("first-password");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect.poll(() => page.getByText("Account created!").isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByText("Please check your email to confirm your account before signing in.").isVisible()).toBe(true);

    await fillSignIn(page, email, "first-password");
    await expect
      .poll(() => page.getByRole("alert").first().textContent(), { timeout: 10_000 })
      .toBe("Please check your email and click the confirmation link before signing in.");

    const link = linkIn(await waitForOutboxMail(server.dataDir, email, "Confirm"), "/auth/confirm");
    await page.goto(link);
    await page.waitForURL(`${server.url}/dashboard`);
    await expect.poll(() => page.getByText("Email confirmed").isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByRole("button", { name: "User menu" }).locator("[aria-hidden]").textContent()).toBe("NN");

    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL(`${server.url}/auth`);
    await fillSignIn(page, email, "first-password");
    await page.waitForURL(`${server.url}/dashboard`);
    await expect.poll(() => page.getByText("Welcome back!").isVisible(), { timeout: 10_000 }).toBe(true);
    await context.close();
  });

  it("signs in without a full reload, shows the user menu and signs out", async () => {
    const { email, password } = await createTestUser(server.ctx, { displayName: "Grace Hopper" });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(/\/auth\?redirectTo=%2Fdashboard$/);
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

    await fillSignIn(page, email, "wrong password");
    await expect
      .poll(() => page.getByRole("alert").first().textContent(), { timeout: 10_000 })
      .toBe("Invalid email or password. Please check your credentials and try again.");

    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await expect.poll(() => page.getByText("Welcome back!").isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

    expect(await page.getByRole("button", { name: "User menu" }).locator("[aria-hidden]").textContent()).toBe("GH");
    await page.getByRole("button", { name: "User menu" }).click();
    const menu = page.getByRole("menu");
    expect(await menu.getByText("Grace Hopper").isVisible()).toBe(true);
    expect(await menu.getByText(email).isVisible()).toBe(true);
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL(`${server.url}/auth`);
    await expect.poll(() => page.getByText("Signed out successfully").isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByText("You have been signed out of your account.").isVisible()).toBe(true);
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(/\/auth\?redirectTo=/);
    await context.close();
  });

  it("works with JavaScript off: validation message, sign-in and the way back", async () => {
    const { email, password } = await createTestUser(server.ctx);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/auth?redirectTo=%2Fdashboard%3Fhello%3D1`);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    expect(await page.getByRole("alert").first().textContent()).toBe("Please fill in all fields");

    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.waitForURL(/tab=signup/);
    expect(await page.getByLabel("Display Name").isVisible()).toBe(true);
    await page.getByRole("tab", { name: "Sign In" }).click();

    await fillSignIn(page, email, password);
    await page.waitForURL(`${server.url}/dashboard?hello=1`);
    await context.close();
  });

  it("an admin changes another user's role on /admin/users and it holds after reload", async () => {
    const admin = await signUpAndSignIn(server, { role: "admin", displayName: "Root Admin" });
    const target = await signUpAndSignIn(server, { displayName: "Mod Candidate" });
    const context = await signedInBrowserContext(browser, server, admin, { viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/admin/users`);
    expect(await page.getByRole("link", { name: "Users" }).isVisible()).toBe(true);
    const card = page.locator(`[data-user-id="${target.user.id}"]`);
    expect(await card.getByText("Unnamed User").count()).toBe(0);
    expect(await card.getByText(target.user.id.slice(0, 8)).isVisible()).toBe(true);
    await card.getByLabel("Role for Mod Candidate").selectOption("moderator");
    await expect.poll(() => page.getByText("Role updated").isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByText("User role has been updated successfully").isVisible()).toBe(true);
    await page.reload();
    expect(await card.getByLabel("Role for Mod Candidate").inputValue()).toBe("moderator");
    expect(await card.locator("span", { hasText: /^moderator$/ }).isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath("admin-users-desktop"), fullPage: true });
    await page.setViewportSize({ width: 375, height: 740 });
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await page.screenshot({ path: screenshotPath("admin-users-mobile"), fullPage: true });
    await context.close();
  });

  it("looks right on desktop and at 375 px", async () => {
    for (const [name, viewport] of [
      ["auth-desktop", { width: 1280, height: 800 }],
      ["auth-mobile", { width: 375, height: 740 }],
    ] as const) {
      const page = await browser.newPage({ viewport });
      await page.goto(`${server.url}/auth`);
      await page.screenshot({ path: screenshotPath(name), fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(overflow).toBe(false);
      await page.goto(`${server.url}/auth?tab=signup`);
      await page.screenshot({ path: screenshotPath(`${name}-signup`), fullPage: true });
      await page.close();
    }
  });
});
