import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { signedInBrowserContext, signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import { screenshotPath } from "../helpers/browser.ts";
import type { TestServer } from "../helpers/server.ts";

let server: TestServer;
let browser: Browser;
let member: SignedInUser;

test.beforeAll(async ({ server: started, browser: launched }) => {
  server = started;
  browser = launched;
  member = await signUpAndSignIn(server, { displayName: "Smoke Tester" });
});

describe("shell smoke", () => {
  it("renders the home page on the server, readable without JavaScript", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const res = await page.goto(server.url);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toMatch(/ \| Stash$/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Stash");
    await context.close();
  });

  it("shows the 404 page with a link home", async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${server.url}/definitely/missing`);
    expect(res?.status()).toBe(404);
    expect(await page.getByText("Oops! Page not found").isVisible()).toBe(true);
    await page.getByRole("link", { name: "Return to Home" }).click();
    await page.waitForURL(`${server.url}/`);
    await page.close();
  });

  it("keeps the chosen theme across reloads without a flash of the other theme", async () => {
    const context = await signedInBrowserContext(browser, server, member, { colorScheme: "light" });
    const page = await context.newPage();
    await page.goto(`${server.url}/dashboard`);
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    expect(await isDark()).toBe(false);
    await page.getByRole("button", { name: "Toggle theme" }).click();
    await page.getByRole("menuitemradio", { name: "Dark" }).click();
    await expect.poll(isDark).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("ui-theme"))).toBe("dark");

    // The class must already be there in the first paint: check it before any bundle runs.
    await page.route("**/assets/**", (route) => route.abort());
    await page.reload();
    expect(await isDark()).toBe(true);
    await page.unroute("**/assets/**");
    await page.reload();
    await page.screenshot({ path: screenshotPath("shell-dark") });
    await context.close();
  });

  it("toggles the sidebar with Ctrl+B and remembers it in a cookie", async () => {
    const context = await signedInBrowserContext(browser, server, member, { viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/dashboard`);
    const sidebar = page.locator("#portal-sidebar");
    await expect.poll(() => sidebar.getAttribute("data-state")).toBe("expanded");
    expect((await sidebar.boundingBox())?.width).toBe(256);
    await page.keyboard.press("Control+b");
    await expect.poll(() => sidebar.getAttribute("data-state")).toBe("collapsed");
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(48);
    const cookie = (await context.cookies()).find((c) => c.name === "sidebar_state");
    expect(cookie?.value).toBe("false");
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(6.9 * 24 * 3600);
    await page.reload();
    expect(await sidebar.getAttribute("data-state")).toBe("collapsed");
    await page.keyboard.press("Control+b");
    await expect.poll(() => sidebar.getAttribute("data-state")).toBe("expanded");
    await context.close();
  });

  it("uses an 18rem sheet for navigation below 768 px", async () => {
    const context = await signedInBrowserContext(browser, server, member, { viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/dashboard`);
    await expect.poll(() => page.locator("#portal-sidebar").count()).toBe(0);
    await page.getByRole("button", { name: "Toggle sidebar" }).click();
    const sheet = page.locator("#portal-sidebar");
    expect((await sheet.boundingBox())?.width).toBe(288);
    await page.screenshot({ path: screenshotPath("shell-mobile-nav") });
    await page.getByRole("button", { name: "Close navigation" }).click({ position: { x: 350, y: 400 } });
    await expect.poll(() => sheet.count()).toBe(0);
    await context.close();
  });
});
