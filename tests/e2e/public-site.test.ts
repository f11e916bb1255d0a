import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { stashTest } from "../helpers/fixtures.ts";
import { PLAN_LIST } from "../../app/lib/plans.ts";
import { createToastHeaders } from "../../app/http/toast.server.ts";
import { screenshotPath } from "../helpers/browser.ts";
import type { TestServer } from "../helpers/server.ts";

const test = stashTest({ APP_URL: "https://stash.example.gg", CDN_BASE_URL: "https://cdn.stash.example.gg" });

let server: TestServer;
let browser: Browser;

test.beforeAll(async ({ server: started, browser: launched }) => {
  server = started;
  browser = launched;
});

const PAGES = [
  { path: "/", title: "FiveM Media CDN and File Hosting | Stash", jsonLd: ["Organization", "WebSite"] },
  { path: "/fivem-cdn", title: "FiveM CDN for Screenshots, Phone Photos and Evidence | Stash", jsonLd: [] },
  { path: "/pricing", title: "Pricing | Stash", jsonLd: ["Product"] },
  { path: "/docs", title: "API Documentation | Stash", jsonLd: ["TechArticle"] },
];

async function meta(page: Page, selector: string) {
  return page.locator(selector).first().getAttribute("content");
}

/** Fails on anything wider than the viewport: the classic 375 px layout bug. */
async function horizontalOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

describe("public pages", () => {
  for (const { path, title, jsonLd } of PAGES) {
    it(`renders ${path} without JavaScript, with its SEO tags, at desktop and 375 px`, async () => {
      for (const viewport of [
        { name: "desktop", width: 1366, height: 900 },
        { name: "mobile", width: 375, height: 812 },
      ]) {
        const context = await browser.newContext({ javaScriptEnabled: false, viewport, colorScheme: "dark" });
        const page = await context.newPage();
        const res = await page.goto(`${server.url}${path}`);
        expect(res?.status()).toBe(200);
        expect(await page.title()).toBe(title);
        expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: screenshotPath(`public${path === "/" ? "-home" : path.replace("/", "-")}-${viewport.name}`), fullPage: true });

        if (viewport.name === "desktop") {
          const canonical = `https://stash.example.gg${path}`;
          expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(canonical);
          expect(await meta(page, 'meta[name="description"]')).toMatch(/.{60,}/);
          expect(await meta(page, 'meta[name="keywords"]')).toContain("FiveM");
          expect(await meta(page, 'meta[property="og:title"]')).toBe(title);
          expect(await meta(page, 'meta[property="og:url"]')).toBe(canonical);
          expect(await meta(page, 'meta[property="og:image"]')).toBe("https://stash.example.gg/og-image.png");
          expect(await meta(page, 'meta[name="twitter:card"]')).toBe("summary_large_image");
          expect(await meta(page, 'meta[name="twitter:title"]')).toBe(title);
          const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
          const types = blocks.flatMap((text) => [JSON.parse(text)].flat().map((item: { "@type": string }) => item["@type"]));
          expect(types).toEqual(jsonLd);
        }
        await context.close();
      }
    });
  }

  it("home lists the stats, the eight compatible scripts as Ready, and prefills /auth with the typed e-mail", async () => {
    const page = await browser.newPage();
    await page.goto(server.url, { waitUntil: "networkidle" });
    for (const stat of ["50TB+", "500+", "45+", "<100ms"]) expect(await page.getByText(stat, { exact: true }).count()).toBe(1);
    // The hero's upload example fits its frame at 1366 px: nothing to scroll sideways.
    await page.setViewportSize({ width: 1366, height: 900 });
    const hero = page.getByRole("region", { name: "Example: upload an evidence photo from server.lua" });
    expect(await hero.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    const scripts = page.getByRole("heading", { name: "Works with the scripts you already run" }).locator("xpath=../..").locator("li");
    expect(await scripts.count()).toBe(8);
    expect(await scripts.getByText("Ready", { exact: true }).count()).toBe(8);
    for (const link of ["/fivem-cdn", "/pricing", "/docs", "/auth"]) {
      expect(await page.locator(`header a[href="${link}"]`).count()).toBeGreaterThan(0);
    }
    await page.getByLabel("Email address").fill("boss@vinewood.gg");
    await page.getByRole("button", { name: "Get Started Free" }).click();
    await page.waitForURL((url) => url.pathname === "/auth");
    expect(new URL(page.url()).searchParams.get("email")).toBe("boss@vinewood.gg");
    await page.close();
  });

  it("pricing shows the four plans from the plan constants, add-ons and the FAQ", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/pricing`, { waitUntil: "networkidle" });
    const cards = page.locator("[data-plan]");
    expect(await cards.count()).toBe(4);
    for (const plan of PLAN_LIST) {
      const card = page.locator(`[data-plan="${plan.tier}"]`);
      expect(await card.getByRole("heading", { name: plan.name }).count()).toBe(1);
      expect(await card.textContent()).toContain(`£${plan.priceGbp.toFixed(2)}`);
      expect(await card.getByRole("link").getAttribute("href")).toBe("/auth");
    }
    expect(await page.locator('[data-plan="professional"]').textContent()).toContain("Most Popular");
    expect(await page.getByRole("heading", { name: /add storage/i }).count()).toBe(1);
    await page.getByText("Can I upgrade or downgrade at any time?").click();
    expect(await page.getByText("take effect immediately", { exact: false }).isVisible()).toBe(true);
    await page.close();
  });

  it("fivem-cdn sends anonymous visitors to /auth and switches use-case tabs", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/fivem-cdn`, { waitUntil: "networkidle" });
    expect(await page.getByTestId("hero-cta").getAttribute("href")).toBe("/auth");
    expect(await page.getByText("Discord webhooks", { exact: true }).count()).toBeGreaterThan(0);
    await page.getByRole("tab", { name: "Security" }).click();
    await expect.poll(() => page.getByRole("tabpanel").filter({ hasText: "Security cameras and bodycams" }).isVisible()).toBe(true);
    expect(await page.getByText("auto-deletes after 30 days").isVisible()).toBe(true);
    expect(await page.getByRole("tabpanel").filter({ hasText: "Phone photos, videos and voice notes" }).isVisible()).toBe(false);

    // Arrow keys move between tabs (wrapping), like any tab strip.
    await page.getByRole("tab", { name: "Security" }).press("ArrowRight");
    await expect.poll(() => page.getByRole("tab", { name: "Phone" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Phone");
    expect(await page.getByRole("tabpanel").filter({ hasText: "Phone photos, videos and voice notes" }).isVisible()).toBe(true);
    expect(await page.getByRole("tabpanel").filter({ hasText: "Security cameras and bodycams" }).isVisible()).toBe(false);
    await page.close();
  });

  it("fivem-cdn without JavaScript shows every use case and no dead tabs or copy buttons", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/fivem-cdn`);
    expect(await page.getByRole("tablist").isVisible()).toBe(false);
    for (const title of ["Phone photos, videos and voice notes", "Vehicle, clothing and map packs", "MDT mugshots and evidence lockers", "Security cameras and bodycams"]) {
      expect(await page.getByRole("heading", { name: title }).isVisible()).toBe(true);
    }
    expect(await page.getByRole("button", { name: /^Copy/ }).first().isVisible()).toBe(false);
    await context.close();
  });

  it("docs navigation scrolls each section into view, and a copy button copies with a toast", async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    await page.goto(`${server.url}/docs`, { waitUntil: "networkidle" });
    const nav = page.getByRole("navigation", { name: "Documentation", exact: true });
    for (const id of ["quick-start", "authentication", "screenshot-integration", "first-upload", "phone-scripts", "police-mdt", "housing-security", "inventory-items", "api-overview", "upload-api", "search-api", "download-api"]) {
      expect(await page.locator(`section#${id}`).count()).toBe(1);
    }
    await nav.locator('a[href="#search-api"]').click();
    await expect.poll(() => page.evaluate(() => Math.round(document.getElementById("search-api")!.getBoundingClientRect().top))).toBeLessThan(120);
    expect(new URL(page.url()).hash).toBe("#search-api");
    await expect.poll(() => nav.locator('a[aria-current="location"]').getAttribute("href")).toBe("#search-api");

    await nav.locator('a[href="#upload-api"]').click();
    await expect.poll(() => page.evaluate(() => Math.round(document.getElementById("upload-api")!.getBoundingClientRect().top))).toBeLessThan(120);

    const block = page.locator("#upload-api figure").first();
    const copyButton = block.getByRole("button", { name: /^Copy/ });
    await copyButton.click();
    await expect.poll(() => copyButton.innerText()).toBe("Copied");
    const toast = page.locator("[data-toast]");
    await expect.poll(() => toast.textContent()).toContain("Copied!");
    expect(await toast.textContent()).toContain("Code snippet copied to clipboard");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await block.locator("pre").textContent());
    expect(copied).toContain("https://stash.example.gg/api/upload");
    await page.screenshot({ path: screenshotPath("public-docs-copied") });
    await context.close();
  });

  it("public pages ship a few kilobytes of inline script instead of the app bundle", async () => {
    for (const path of ["/", "/fivem-cdn", "/pricing", "/docs", "/no-such-page"]) {
      const page = await browser.newPage();
      const scriptRequests: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "script") scriptRequests.push(request.url());
      });
      await page.goto(`${server.url}${path}`, { waitUntil: "networkidle" });
      expect(scriptRequests).toEqual([]);
      const inlineScriptBytes = await page.evaluate(() =>
        Array.from(document.scripts)
          .filter((script) => script.type !== "application/ld+json")
          .reduce((total, script) => total + new TextEncoder().encode(script.text).length, 0),
      );
      expect(inlineScriptBytes).toBeGreaterThan(0);
      expect(inlineScriptBytes).toBeLessThan(10_000);
      expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
      await page.close();
    }

    // The portal still gets its bundle: the difference is per page, not a broken build.
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.goto(`${server.url}/auth`, { waitUntil: "networkidle" });
    expect(scripts.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(true);

    // A client-side link from a hydrated page loads the public page as a document, so its script runs.
    await page.locator('a[href="/"]').first().click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
    await page.close();
  });

  it("a toast carried by a redirect shows on a public page, and the mobile menu closes with Escape", async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
    const headers = await createToastHeaders({ type: "success", title: "Signed out successfully", description: "You have been signed out of your account." });
    const [pair] = headers.get("Set-Cookie")!.split(";");
    const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    await page.goto(server.url);
    const toast = page.locator("[data-toast]");
    await expect.poll(() => toast.textContent()).toContain("Signed out successfully");
    expect(await toast.textContent()).toContain("You have been signed out of your account.");
    await toast.getByRole("button", { name: "Close toast" }).click();
    expect(await toast.count()).toBe(0);

    // Toasts pause under the pointer and a sideways swipe dismisses them (spec §9).
    await context.addCookies([{ name, value, url: server.url }]);
    await page.reload();
    await expect.poll(() => toast.count()).toBe(1);
    const box = (await toast.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(5_500);
    expect(await toast.count()).toBe(1);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    expect(await toast.count()).toBe(0);

    await page.getByLabel("Open menu").click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    expect(await menu.isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    expect(await menu.isVisible()).toBe(false);
    await page.getByLabel("Open menu").click();
    await page.getByRole("heading", { level: 1 }).click();
    expect(await menu.isVisible()).toBe(false);
    await context.close();
  });

  it("docs tell the reader when copying fails", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/docs`, { waitUntil: "networkidle" });
    await page.evaluate(() => {
      Object.defineProperty(navigator, "clipboard", { value: { writeText: () => Promise.reject(new Error("denied")) } });
    });
    await page.locator("#quick-start figure").first().getByRole("button", { name: /^Copy/ }).click();
    const toast = page.locator("[data-toast]");
    await expect.poll(() => toast.textContent()).toContain("Failed to copy");
    expect(await toast.textContent()).toContain("Please copy the code manually");
    // The code is left selected, ready to copy by hand.
    const code = await page.locator("#quick-start figure pre").first().textContent();
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(code);
    await context.close();
  });
});
