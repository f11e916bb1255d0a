import { Readable } from "node:stream";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { formatBytes } from "../../app/lib/format.ts";
import { verifyCredentials } from "../../app/services/accounts/password-accounts.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { createSessionCookie, signedInBrowserContext, signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import { screenshotPath } from "../helpers/browser.ts";
import { test } from "../helpers/fixtures.ts";
import { gameScreenshot } from "../helpers/images.ts";
import type { TestServer } from "../helpers/server.ts";
import type { ServerId, TeamId } from "../../app/lib/ids.ts";

/**
 * A walk through the portal as an owner meets it, at 1366 px (dark) and 375 px (light), on an
 * account holding thousands of files: the units agree, one toast at a time, the file detail view
 * and its actions, settings that take effect, keys whose permissions the API enforces, the
 * onboarding checklist ticking, and the report → hide → 451 → restore loop.
 */

let server: TestServer;
let browser: Browser;
let heavy: SignedInUser;
let heavyServerId: ServerId;
const SEEDED = 2000;
const PLAYERS = ["Jane Vega", "Niko Bellic", "Franklin", "Trevor", "Lamar"];
const CATEGORIES = ["bodycam", "police_evidence", "phone_photos", "screenshots"];
const LAYOUTS = [
  { name: "desktop", viewport: { width: 1366, height: 900 }, colorScheme: "dark" as const },
  { name: "mobile", viewport: { width: 375, height: 812 }, colorScheme: "light" as const },
];

/** Thousands of real rows, each with its blob and counted in usage, as uploads leave them. */
async function seedThousands(teamId: TeamId, serverId: ServerId) {
  const now = Date.now();
  const rows = Array.from({ length: SEEDED }, (_, i) => {
    const size = 2000 + ((i * 7919) % 50_000);
    const filename = `seed${String(i).padStart(5, "0")}.pdf`;
    return {
      server_id: serverId,
      team_id: teamId,
      storage_key: `${serverId}/seed/${filename}`,
      filename,
      original_filename: `case-${String(i).padStart(4, "0")}.pdf`,
      category: CATEGORIES[i % CATEGORIES.length]!,
      mime_type: "application/pdf",
      size_bytes: size,
      sha256: "0".repeat(64),
      is_public: true,
      player_name: PLAYERS[i % PLAYERS.length]!,
      player_identifier: `license:${i % PLAYERS.length}`,
      metadata: JSON.stringify({ case_number: `LSPD-${i}` }),
      created_at: new Date(now - i * 3_600_000),
    };
  });
  for (let i = 0; i < rows.length; i += 50) {
    await Promise.all(rows.slice(i, i + 50).map((row) => server.ctx.blobs.put(row.storage_key, Readable.from([Buffer.alloc(row.size_bytes, 37)]))));
  }
  for (let i = 0; i < rows.length; i += 500) await server.ctx.db.insertInto("files").values(rows.slice(i, i + 500)).execute();
  const total = rows.reduce((sum, r) => sum + r.size_bytes, 0);
  await server.ctx.db.updateTable("account_usage").set({ used_bytes: total }).where("team_id", "=", teamId).execute();
  await server.ctx.db.updateTable("servers").set({ storage_used_bytes: total }).where("id", "=", serverId).execute();
  return { total, largest: Math.max(...rows.map((r) => r.size_bytes)) };
}

let seeded: { total: number; largest: number };

test.beforeAll(async ({ server: started, browser: launched }) => {
  server = started;
  browser = launched;
  heavy = await signUpAndSignIn(server, { displayName: "Heavy Owner", password: "first password 1" });
  heavyServerId = (await createServer(server.ctx.db, { teamId: heavy.teamId, name: "Mission Row RP" })).id;
  seeded = await seedThousands(heavy.teamId, heavyServerId);
}, 120_000);

const visibleToasts = (page: Page) => page.locator("[data-sonner-toast][data-visible='true']");
const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title }).first();
async function shoot(page: Page, name: string) {
  await page.screenshot({ path: screenshotPath(`walk-${name}`), fullPage: true });
}

describe("the portal walked as an owner, at 1366 and 375 px", () => {
  for (const layout of LAYOUTS) {
    it(`${layout.name}: one unit everywhere, thousands of files browsed, sorted, filtered and opened`, async () => {
      const context = await signedInBrowserContext(browser, server, heavy, { viewport: layout.viewport, colorScheme: layout.colorScheme });
      const page = await context.newPage();
      try {
        const used = formatBytes(seeded.total);
        await page.goto(`${server.url}/dashboard`);
        await expect.poll(() => page.getByText(used, { exact: true }).count()).toBeGreaterThan(0);
        await page.goto(`${server.url}/storage`);
        expect(await page.getByTestId("storage-used").textContent()).toContain(used);
        // Largest first, with the breakdown by server and category.
        expect(await page.getByTestId("storage-row").first().textContent()).toContain(formatBytes(seeded.largest));
        expect(await page.getByTestId("usage-slice").count()).toBe(1 + CATEGORIES.length);
        await shoot(page, `storage-${layout.name}`);
        await page.goto(`${server.url}/billing`);
        await expect.poll(() => page.getByText(used).count()).toBeGreaterThan(0);

        await page.goto(`${server.url}/gallery`);
        await page.getByTestId("media-card").first().waitFor();
        expect(await page.getByTestId("media-card").count()).toBe(24);
        await page.getByRole("button", { name: "List view" }).click();
        await page.getByTestId("media-row").first().waitFor();
        // The dense layout: 24 files in far less height than the cards took.
        const listHeight = await page.evaluate(() => document.documentElement.scrollHeight);
        expect(listHeight).toBeLessThan(layout.name === "mobile" ? 2600 : 2200);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(layout.viewport.width);
        // The next page loads on its own as the end of the list comes near.
        await page.getByTestId("media-row").last().scrollIntoViewIfNeeded();
        await expect.poll(() => page.getByTestId("media-row").count()).toBeGreaterThanOrEqual(48);
        await shoot(page, `gallery-list-${layout.name}`);

        await page.getByLabel("Sort").selectOption("largest");
        await page.waitForURL(/sort=largest/);
        await expect.poll(async () => (await page.getByTestId("media-row").first().textContent()) ?? "").toContain(formatBytes(seeded.largest, 1));
        await page.getByText("More filters: player and date").click();
        await page.getByLabel("Player name or identifier").fill("license:2");
        await page.waitForURL(/player=license%3A2/);
        await expect.poll(async () => (await page.getByTestId("media-row").allTextContents()).every((t) => t.includes("Franklin"))).toBe(true);

        // The file detail view, opened from the list.
        const firstName = (await page.getByTestId("media-row").first().getByRole("link").textContent())!;
        await page.getByTestId("media-row").first().getByRole("link").click();
        await page.getByRole("heading", { name: firstName }).waitFor();
        const details = page.getByTestId("file-details");
        for (const text of ["application/pdf", "Mission Row RP", "Franklin", "license:2", "Uploaded by", "Expires"]) expect(await details.textContent()).toContain(text);
        expect(await page.getByRole("table", { name: "Metadata" }).textContent()).toContain("case_number");
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(layout.viewport.width);
        await shoot(page, `file-detail-${layout.name}`);
        const row = await server.ctx.db.selectFrom("files").select(["id", "server_id", "category", "filename"]).where("original_filename", "=", firstName).where("team_id", "=", heavy.teamId).executeTakeFirstOrThrow();
        const fileUrl = `${server.url}/f/${row.server_id}/${row.category}/${row.filename}`;

        await page.getByRole("button", { name: "Make private" }).click();
        await expect.poll(() => toast(page, "Visibility updated").isVisible()).toBe(true);
        expect(await visibleToasts(page).count()).toBe(1);
        await expect.poll(async () => (await fetch(fileUrl)).status).toBe(404);
        // The action lands (its row), then the page shows the new state; only then is /f/ asked (a
        // loaded machine takes longer than a poll's second to get there). Two waits, so a failure says
        // which of the two did not happen.
        await page.getByRole("button", { name: "Make public" }).click();
        const isPublic = async () => (await server.ctx.db.selectFrom("files").select("is_public").where("id", "=", row.id).executeTakeFirstOrThrow()).is_public;
        await expect.poll(isPublic, { timeout: 30_000, message: "the Make public action changed the file's row" }).toBe(true);
        await page.getByRole("button", { name: "Make private" }).waitFor();
        await expect.poll(async () => (await fetch(fileUrl)).status).toBe(200);
        expect(await visibleToasts(page).count()).toBe(1);
      } finally {
        await context.close();
      }
    }, 180_000);
  }
});

describe("placeholders before thumbnails", () => {
  it("draws each image's ThumbHash while its thumbnail is still on the way, then the thumbnail", async () => {
    const owner = await signUpAndSignIn(server, { displayName: "Slow Network" });
    const serverId = (await createServer(server.ctx.db, { teamId: owner.teamId, name: "Paleto RP" })).id;
    const context = await signedInBrowserContext(browser, server, owner, { viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    try {
      for (const seed of [11, 12, 13]) {
        const res = await page.request.post(`${server.url}/api/portal/upload?server_id=${serverId}`, {
          headers: { Origin: server.url },
          multipart: { file: { name: `street-${seed}.png`, mimeType: "image/png", buffer: await gameScreenshot(960, 540, seed, "png") } },
        });
        expect(res.status()).toBe(201);
      }
      // Thumbnails held back, as on a slow phone connection.
      const held: (() => Promise<void>)[] = [];
      await page.route("**/api/media/*?thumb=1", (route) => {
        held.push(() => route.continue());
      });
      await page.goto(`${server.url}/gallery`);
      await page.getByTestId("media-card").nth(2).waitFor();
      const placeholders = page.locator("[data-placeholder]");
      await expect.poll(() => placeholders.count()).toBe(3);
      for (const style of await placeholders.evaluateAll((els) => els.map((el) => getComputedStyle(el).backgroundImage))) {
        expect(style).toMatch(/^url\("data:image\/png;base64,/);
      }
      await shoot(page, "gallery-placeholders");
      await Promise.all(held.map((release) => release()));
      await expect.poll(() => placeholders.count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 90_000);
});

describe("a new owner's first steps, settings and keys", () => {
  it("ticks the checklist from real actions, enforces the key's permissions, changes the password and signs out a device", async () => {
    const newcomer = await signUpAndSignIn(server, { displayName: "New Owner", password: "first password 1" });
    const phone = await createSessionCookie(server.ctx, newcomer.user.id);
    const context: BrowserContext = await signedInBrowserContext(browser, server, newcomer, { viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    const steps = () => page.getByTestId("onboarding-step").evaluateAll((els) => els.map((el) => el.getAttribute("data-done") === "true"));
    try {
      await page.goto(`${server.url}/dashboard`);
      await expect.poll(steps).toEqual([false, false, false]);
      await page.getByRole("tab", { name: "qb-phone" }).click();
      await page.getByText("qb-phone/config.lua").waitFor();
      await shoot(page, "onboarding-empty");

      await page.getByRole("link", { name: "Add Server" }).first().click();
      await page.getByLabel("Server Name").fill("Sandy Shores RP");
      await page.getByRole("button", { name: "Create Server" }).click();
      await expect.poll(() => toast(page, "Server created").isVisible()).toBe(true);
      await page.goto(`${server.url}/dashboard`);
      await expect.poll(steps).toEqual([true, false, false]);

      // A read-only key, made on the page: the API refuses it an upload.
      await page.goto(`${server.url}/api-keys`);
      await page.getByLabel("Key Name").fill("Read only bot");
      for (const name of ["Upload", "Delete"]) {
        const box = page.getByRole("checkbox", { name, exact: true });
        if (await box.isChecked()) await box.uncheck();
      }
      if (!(await page.getByRole("checkbox", { name: "Read", exact: true }).isChecked())) await page.getByRole("checkbox", { name: "Read", exact: true }).check();
      await page.getByRole("button", { name: "Generate API Key" }).click();
      const secret = (await page.getByTestId("full-key").textContent())!.trim();
      const png = await gameScreenshot(320, 180, 3, "png");
      const upload = (key: string) => {
        const body = new FormData();
        body.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "first.png");
        return fetch(`${server.url}/api/upload`, { method: "POST", headers: { "x-api-key": key }, body });
      };
      const refused = await upload(secret);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe("permission_denied");
      await page.goto(`${server.url}/dashboard`);
      await expect.poll(steps).toEqual([true, true, false]);

      await page.goto(`${server.url}/api-keys`);
      await page.getByLabel("Key Name").fill("Game server");
      await page.getByRole("button", { name: "Generate API Key" }).click();
      await expect.poll(async () => (await page.getByTestId("full-key").textContent())?.trim()).not.toBe(secret);
      const uploader = (await page.getByTestId("full-key").textContent())!.trim();
      expect((await upload(uploader)).status).toBe(201);
      await page.goto(`${server.url}/dashboard`);
      await expect.poll(() => page.getByTestId("onboarding-step").count()).toBe(0);

      // Settings: a wrong current password is refused inline; the right one changes it and signs the phone out.
      await page.goto(`${server.url}/settings`);
      const current = page.locator("#settings-current-password");
      await current.fill("not my password");
      await page.getByLabel("New password", { exact: true }).fill("second password 2");
      await page.getByLabel("Confirm new password").fill("second password 2");
      await page.getByRole("button", { name: "Update password" }).click();
      await page.getByText("Your current password is not correct").first().waitFor();
      expect(await visibleToasts(page).count()).toBeLessThanOrEqual(1);
      await current.fill("first password 1");
      await page.getByRole("button", { name: "Update password" }).click();
      await expect.poll(() => toast(page, "Password updated").isVisible()).toBe(true);
      expect((await verifyCredentials(server.ctx.db, newcomer.email, "second password 2")).id).toBe(newcomer.user.id);
      await expect(verifyCredentials(server.ctx.db, newcomer.email, "first password 1")).rejects.toMatchObject({ code: "invalid_credentials" });
      const phoneAfter = await server.request("/dashboard", { headers: { Cookie: phone.cookie }, redirect: "manual" });
      expect(phoneAfter.status).toBe(302);
      // A device signed in since is signed out from the list.
      const tablet = await createSessionCookie(server.ctx, newcomer.user.id);
      await page.reload();
      await page.getByRole("button", { name: /^Sign out / }).click();
      await expect.poll(() => toast(page, "Device signed out").isVisible()).toBe(true);
      expect((await server.request("/dashboard", { headers: { Cookie: tablet.cookie }, redirect: "manual" })).status).toBe(302);
      expect((await server.request("/dashboard", { headers: { Cookie: newcomer.cookie }, redirect: "manual" })).status).toBe(200);
      await shoot(page, "settings");
    } finally {
      await context.close();
    }
  }, 180_000);
});

describe("a report, from a visitor to an admin and back", () => {
  it("a visitor reports a file; an admin hides it (451), the owner's Pending Reviews count shows it, then restores it", async () => {
    const file = await server.ctx.db.selectFrom("files").select(["server_id", "category", "filename"]).where("team_id", "=", heavy.teamId).where("is_public", "=", true).executeTakeFirstOrThrow();
    const url = `${server.url}/f/${file.server_id}/${file.category}/${file.filename}`;
    const visitor = await browser.newContext({ viewport: { width: 375, height: 812 } });
    const page = await visitor.newPage();
    await page.goto(`${server.url}/report?url=${encodeURIComponent(url)}`);
    await page.getByLabel("Reason").selectOption("personal_data");
    await page.getByLabel("Details (optional)").fill("Shows a real home address");
    await page.getByRole("button", { name: "Send report" }).click();
    await page.getByText("Thank you. An administrator will review this file.").waitFor();
    await shoot(page, "report-sent");
    await visitor.close();

    const admin = await signUpAndSignIn(server, { role: "admin" });
    const context = await signedInBrowserContext(browser, server, admin, { viewport: { width: 1366, height: 900 } });
    const adminPage = await context.newPage();
    try {
      await adminPage.goto(`${server.url}/admin`);
      expect(await adminPage.getByText("Pending Reviews").isVisible()).toBe(true);
      await adminPage.getByText("Pending Reviews").click();
      await adminPage.waitForURL(/\/admin\/reports$/);
      const card = adminPage.getByTestId("reported-file").filter({ hasText: file.filename });
      expect(await card.textContent()).toContain("Personal data or harassment");
      await card.getByRole("button", { name: "Hide now" }).click();
      await expect.poll(() => toast(adminPage, "File hidden").isVisible()).toBe(true);
      await expect.poll(async () => (await fetch(url)).status).toBe(451);
      await shoot(adminPage, "admin-reports-hidden");
      await card.getByRole("button", { name: "Restore" }).click();
      await expect.poll(() => toast(adminPage, "File restored").isVisible()).toBe(true);
      await expect.poll(async () => (await fetch(url)).status).toBe(200);
    } finally {
      await context.close();
    }
  }, 120_000);
});
