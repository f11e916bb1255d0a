import { Readable } from "node:stream";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { DEFAULT_FILE_TYPES } from "../../app/lib/file-types.ts";
import { reserveQuota } from "../../app/services/billing/quota.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { signedInBrowserContext, signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import { screenshotPath } from "../helpers/browser.ts";
import type { TestServer } from "../helpers/server.ts";
import type { ServerId, TeamId } from "../../app/lib/ids.ts";

let server: TestServer;
let browser: Browser;

test.beforeAll(async ({ server: started, browser: launched }) => {
  server = started;
  browser = launched;
});
const DESKTOP = { width: 1280, height: 900 };
const MOBILE = { width: 375, height: 800 };

async function shoot(context: BrowserContext, path: string, name: string) {
  const page = await context.newPage();
  await page.setViewportSize(MOBILE);
  await page.goto(`${server.url}${path}`);
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: screenshotPath(`${name}-375`), fullPage: true });
  // Nothing may stick out sideways on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
  await page.close();
}

async function seedFile(teamId: TeamId, serverId: ServerId, bytes: number, category: string, player: string) {
  const key = `${serverId}/${category}/${Math.random().toString(36).slice(2)}.png`;
  await server.ctx.blobs.put(key, Readable.from([Buffer.alloc(bytes, 3)]));
  await reserveQuota(server.ctx.db, teamId, bytes);
  await server.ctx.db
    .insertInto("files")
    .values({
      server_id: serverId,
      team_id: teamId,
      storage_key: key,
      filename: key.split("/").pop()!,
      original_filename: "photo.png",
      category,
      mime_type: "image/png",
      size_bytes: bytes,
      sha256: "0".repeat(64),
      is_public: true,
      player_name: player,
    })
    .execute();
}

const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title }).first();

describe("portal core, as a new user", () => {
  let user: SignedInUser;
  let context: BrowserContext;
  let page: Page;
  let serverId: ServerId;

  beforeAll(async () => {
    user = await signUpAndSignIn(server, { displayName: "Nova Owner" });
    context = await signedInBrowserContext(browser, server, user, { viewport: DESKTOP });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  it("starts with an empty dashboard", async () => {
    await page.goto(`${server.url}/dashboard`);
    await expect.poll(() => page.getByText("No servers configured").isVisible()).toBe(true);
    expect(await page.getByText("of 5 GB available").isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath("portal-dashboard-empty"), fullPage: true });
  });

  it("shows three card skeletons while My Servers loads", async () => {
    await page.route("**/servers.data*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.getByRole("link", { name: "My Servers" }).first().click();
    const skeletons = page.getByTestId("server-card-skeletons");
    await expect.poll(() => skeletons.isVisible()).toBe(true);
    expect(await skeletons.locator("> div").count()).toBe(3);
    await page.waitForURL(`${server.url}/servers`);
    await expect.poll(() => page.getByText("No servers yet").isVisible()).toBe(true);
    await page.unroute("**/servers.data*");
  });

  it("shows a refused form's toast clear of the wrong field, its message and the pointer, at 1366 and 375 px", async () => {
    const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    type Box = { x: number; y: number; width: number; height: number };
    for (const viewport of [DESKTOP, { width: 375, height: 812 }]) {
      const ctx = await signedInBrowserContext(browser, server, user, { viewport });
      const p = await ctx.newPage();
      try {
        await p.goto(`${server.url}/servers?new=1`);
        await p.getByLabel("Server Name").fill("");
        const submit = p.getByRole("button", { name: "Create Server" });
        await submit.scrollIntoViewIfNeeded();
        const clickedAt = (await submit.boundingBox())!;
        await submit.click();
        const raised = toast(p, "Invalid server name");
        await expect.poll(() => raised.isVisible()).toBe(true);
        expect(await p.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
        const toastBox = (await raised.boundingBox())!;
        const field = (await p.getByLabel("Server Name").boundingBox())!;
        const message = (await p.getByText("Server name is required").first().boundingBox())!;
        expect(overlaps(toastBox, field), `toast over the field at ${viewport.width}px`).toBe(false);
        expect(overlaps(toastBox, message), `toast over the message at ${viewport.width}px`).toBe(false);
        // The page scrolled the field to the middle, so the toast is not under the pointer that clicked.
        const pointer = { x: clickedAt.x + clickedAt.width / 2, y: clickedAt.y + clickedAt.height / 2, width: 1, height: 1 };
        expect(overlaps(toastBox, pointer), `toast under the pointer at ${viewport.width}px`).toBe(false);
        expect(await p.locator("[data-sonner-toast]").count()).toBe(1);
        await p.screenshot({ path: screenshotPath(`portal-servers-invalid-${viewport.width}`) });
      } finally {
        await ctx.close();
      }
    }
  });

  it("creates a server, validating in the browser first", async () => {
    await page.goto(`${server.url}/servers`);
    expect(await page.getByText("No servers yet").isVisible()).toBe(true);
    await page.getByRole("link", { name: "Add New Server" }).click();
    await page.getByLabel("Server Name").fill("Bad/Name");
    await page.getByRole("button", { name: "Create Server" }).click();
    await expect.poll(() => toast(page, "Invalid server name").isVisible()).toBe(true);
    expect(await page.getByText("Server name can only contain letters, numbers, spaces, hyphens, and underscores").first().isVisible()).toBe(true);
    expect(await server.ctx.db.selectFrom("servers").select("id").where("team_id", "=", user.teamId).execute()).toEqual([]);

    await page.getByLabel("Server Name").fill("Nova City RP");
    await page.getByLabel("Description").fill("Serious roleplay");
    await page.getByLabel("Endpoint URL").fill("https://play.nova.example");
    // New servers start with every image, video and audio type and pdf, so Documents starts mixed. The group
    // box selects its types from the keyboard, a type chip clears one and leaves the group mixed again.
    const documents = page.getByRole("checkbox", { name: "Documents", exact: true });
    expect(await documents.evaluate((box) => (box as HTMLInputElement).indeterminate)).toBe(true);
    expect(await page.getByRole("checkbox", { name: /^pdf / }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: /^txt / }).isChecked()).toBe(false);
    expect(await page.getByRole("checkbox", { name: "Audio", exact: true }).isChecked()).toBe(true);
    await documents.focus();
    await page.keyboard.press("Space");
    expect(await page.getByRole("checkbox", { name: /^txt / }).isChecked()).toBe(true);
    await page.locator("label").filter({ hasText: /^txt$/i }).click();
    expect(await documents.evaluate((box) => (box as HTMLInputElement).indeterminate)).toBe(true);
    await page.screenshot({ path: screenshotPath("portal-servers-create-form"), fullPage: true });
    await page.getByRole("button", { name: "Create Server" }).click();
    await expect.poll(() => toast(page, "Server created").isVisible()).toBe(true);
    expect(await toast(page, "Server created").textContent()).toContain('Server "Nova City RP" has been created successfully.');
    await expect.poll(() => page.getByTestId("server-card").count()).toBe(1);
    // The form collapses once the fetcher settles, a render after the new card shows.
    await expect.poll(() => page.getByRole("button", { name: "Create Server" }).count()).toBe(0);
    const row = await server.ctx.db.selectFrom("servers").selectAll().where("team_id", "=", user.teamId).executeTakeFirstOrThrow();
    expect(row.allowed_file_types).toEqual([...DEFAULT_FILE_TYPES]);
    serverId = row.id;
    await page.screenshot({ path: screenshotPath("portal-servers"), fullPage: true });
  });

  it("shows a refusal only the server can make as a toast at once, and creates nothing", async () => {
    // The quota check runs in the action (409): its toast rides in the flash cookie, which the
    // root loader must read although React Router skips loaders after a 4xx action by default.
    const usage = () => server.ctx.db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", user.teamId).executeTakeFirstOrThrow();
    const before = await usage();
    await server.ctx.db.updateTable("account_usage").set({ used_bytes: 5 * 1024 ** 3 }).where("team_id", "=", user.teamId).execute();
    try {
      await page.goto(`${server.url}/servers`);
      await page.getByRole("link", { name: "Add New Server" }).click();
      await page.getByLabel("Server Name").fill("Overflow RP");
      await page.getByRole("button", { name: "Create Server" }).click();
      await expect.poll(() => toast(page, "Error creating server").isVisible()).toBe(true);
      expect(await toast(page, "Error creating server").textContent()).toContain("Creating this server would exceed your storage quota of 5GB");
      expect(await page.getByTestId("server-card").count()).toBe(1);
      expect(await server.ctx.db.selectFrom("servers").select("name").where("team_id", "=", user.teamId).execute()).toEqual([{ name: "Nova City RP" }]);
    } finally {
      await server.ctx.db.updateTable("account_usage").set({ used_bytes: before.used_bytes }).where("team_id", "=", user.teamId).execute();
    }
  });

  it("creates an API key from the server page and shows it once", async () => {
    await page.getByRole("link", { name: "Manage Nova City RP" }).click();
    await page.waitForURL(`${server.url}/servers/${serverId}`);
    await page.getByRole("link", { name: "Manage API keys" }).click();
    await page.waitForURL(`${server.url}/api-keys?server=${serverId}`);
    expect(await page.getByLabel("Associated Server").inputValue()).toBe(serverId);
    await page.getByRole("button", { name: "Generate API Key" }).click();
    await expect.poll(() => toast(page, "Missing information").isVisible()).toBe(true);
    await page.getByLabel("Key Name").fill("Phone uploads");
    await page.getByRole("button", { name: "Generate API Key" }).click();
    const banner = page.getByTestId("key-banner");
    await expect.poll(() => banner.isVisible()).toBe(true);
    const secret = (await page.getByTestId("full-key").textContent())!.trim();
    expect(secret).toMatch(/^sk_[0-9A-Za-z]{40}$/);
    await expect.poll(() => page.getByTestId("api-key-row").count()).toBe(1);
    expect(await page.getByTestId("api-key-row").textContent()).toContain("Active");
    // The guide now carries the new key and this instance's URL.
    expect(await page.locator("pre").first().textContent()).toContain(secret);
    expect(await page.locator("pre").first().textContent()).toContain(`${server.url}/api/upload`);
    await page.screenshot({ path: screenshotPath("portal-api-keys-banner"), fullPage: true });
    await page.getByRole("button", { name: "Got it" }).click();
    await expect.poll(() => banner.count()).toBe(0);
    await page.reload();
    expect(await page.content()).not.toContain(secret);
  });

  it("regenerates a key behind a confirmation", async () => {
    await page.getByRole("button", { name: "Regenerate Phone uploads" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Regenerate" }).click();
    await expect.poll(() => toast(page, "API key regenerated").isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("key-banner").isVisible()).toBe(true);
  });

  it("shows real figures on the dashboard and passes every connection test", async () => {
    await seedFile(user.teamId, serverId, 300_000, "phone_camera", "Niko");
    await server.ctx.db
      .insertInto("usage_daily")
      .values({ server_id: serverId, day: new Date().toISOString().slice(0, 10), api_calls: 12, uploads: 1, upload_bytes: 300_000, downloads: 4, download_bytes: 1_200_000 })
      .execute();
    await page.goto(`${server.url}/dashboard`);
    const stats = page.getByRole("region", { name: "Statistics" });
    await expect.poll(() => stats.textContent()).toContain("Total Servers1");
    expect(await stats.textContent()).toContain("Media Files1");
    expect(await stats.textContent()).toContain("API Calls12");
    expect(await page.getByRole("list", { name: "Your servers" }).textContent()).toContain("Nova City RP");
    await page.getByRole("button", { name: "Run Connection Tests" }).click();
    const checks = page.getByTestId("connection-check");
    await expect.poll(() => page.locator('[data-testid="connection-check"][data-status="success"]').count(), { timeout: 15_000 }).toBe(7);
    expect(await checks.allTextContents()).toEqual([
      expect.stringContaining("Authentication"),
      expect.stringContaining("Database Connection"),
      expect.stringContaining("Internal API Health"),
      expect.stringContaining("User Profile"),
      expect.stringContaining("Subscription Status"),
      expect.stringContaining("Servers"),
      expect.stringContaining("API Key Creation Test"),
    ]);
    await checks.nth(3).locator("summary").click();
    expect(await checks.nth(3).locator("pre").textContent()).toContain('"display_name": "Nova Owner"');
    // The temporary key is gone again: only the user's own key remains.
    expect(await server.ctx.db.selectFrom("api_keys").select("id").where("team_id", "=", user.teamId).execute()).toHaveLength(1);
    await page.screenshot({ path: screenshotPath("portal-dashboard"), fullPage: true });
  });

  it("draws analytics from the real counters", async () => {
    await page.goto(`${server.url}/analytics?range=7`);
    expect(await page.getByText("No Analytics Data Yet").count()).toBe(0);
    await expect.poll(() => page.locator(".recharts-surface").count()).toBeGreaterThanOrEqual(5);
    expect(await page.getByRole("region", { name: "Totals" }).textContent()).toContain("Total Files1");
    await page.screenshot({ path: screenshotPath("portal-analytics"), fullPage: true });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await expect.poll(() => page.locator(".recharts-surface").count()).toBeGreaterThanOrEqual(5);
    await page.screenshot({ path: screenshotPath("portal-analytics-dark"), fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("edits server settings: cancel restores, save stores", async () => {
    await page.goto(`${server.url}/servers/${serverId}`);
    await page.getByRole("button", { name: "Edit Settings" }).click();
    await page.getByLabel("Server Name").fill("Changed Then Cancelled");
    await page.getByRole("button", { name: "Cancel" }).click();
    expect(await page.getByTestId("server-settings").textContent()).toContain("Nova City RP");
    await page.getByRole("button", { name: "Edit Settings" }).click();
    expect(await page.getByLabel("Server Name").inputValue()).toBe("Nova City RP");
    await page.getByLabel("Max File Size (MB)").fill("");
    await page.getByLabel("Server Name").fill("Nova City Two");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect.poll(() => toast(page, "Server updated").isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("server-settings").textContent()).toContain("Nova City Two");
    expect(await page.getByTestId("server-settings").textContent()).toContain("50 MB");
    expect(await page.getByTestId("server-stats").textContent()).toContain(`Allowed File Types${DEFAULT_FILE_TYPES.length}`);
    // The settings list the types under their groups.
    const groups = await page.getByTestId("allowed-types").first().locator(":scope > div").allTextContents();
    expect(groups.map((g) => g.replace(/\s+/g, ""))).toEqual([
      "Imagesjpgpnggifwebpavifheic",
      "Videomp4webmmovavimkv",
      "Audiomp3oggwebawavm4aaac",
      "Documentspdf",
    ]);

    const hook = page.getByLabel("Webhook URL");
    const before = await hook.inputValue();
    expect(before).toMatch(new RegExp(`^${server.url}/api/webhooks/${serverId}/[0-9A-Za-z]{40}$`));
    await page.getByRole("button", { name: "Rotate" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Rotate" }).click();
    await expect.poll(() => hook.inputValue()).not.toBe(before);
    await expect.poll(() => page.getByRole("alertdialog").count()).toBe(0);
    await page.screenshot({ path: screenshotPath("portal-server-detail"), fullPage: true });
  });

  it("takes every screen at 375 px", async () => {
    await shoot(context, "/dashboard", "portal-dashboard");
    await shoot(context, "/servers", "portal-servers");
    await shoot(context, `/servers/${serverId}`, "portal-server-detail");
    await shoot(context, "/api-keys", "portal-api-keys");
    await shoot(context, "/analytics", "portal-analytics");
    await shoot(context, "/audit", "portal-audit");
    await shoot(context, "/cases", "portal-cases");
    await shoot(context, "/servers/does-not-exist", "portal-server-not-found");
  });

  it("deletes the server behind the exact confirmation", async () => {
    await page.goto(`${server.url}/servers/${serverId}`);
    await page.getByRole("button", { name: "Delete Server" }).click();
    const dialog = page.getByRole("alertdialog");
    expect(await dialog.textContent()).toContain("Are you sure you want to delete this server? This action cannot be undone.");
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await page.waitForURL(`${server.url}/servers`);
    await expect.poll(() => toast(page, "Server deleted").isVisible()).toBe(true);
    expect(await page.getByText("No servers yet").isVisible()).toBe(true);
    const usage = await server.ctx.db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", user.teamId).executeTakeFirstOrThrow();
    expect(Number(usage.used_bytes)).toBe(0);
    await page.goto(`${server.url}/dashboard`);
    expect(await page.getByRole("region", { name: "Statistics" }).textContent()).toContain("Total Servers0");
  });

  it("sends a non-admin from /admin to /", async () => {
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(`${server.url}/`);
  });
});

describe("admin screens", () => {
  it("shows live totals and health, and deletes a server with the exact confirmation", async () => {
    const admin = await signUpAndSignIn(server, { role: "admin", displayName: "Ada Admin" });
    const owner = await signUpAndSignIn(server);
    const target = await createServer(server.ctx.db, { teamId: owner.teamId, name: "Rogue Server", endpointUrl: "https://rogue.example.net/x" });
    await seedFile(owner.teamId, target.id, 5000, "other", "Someone");
    await server.ctx.db.updateTable("users").set({ last_sign_in_at: new Date() }).where("id", "=", owner.user.id).execute();

    const context = await signedInBrowserContext(browser, server, admin, { viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${server.url}/admin`);
    const health = page.getByTestId("health-item");
    expect(await health.allTextContents()).toEqual([
      expect.stringMatching(/^Database.*Healthy$/),
      expect.stringMatching(/^Storage.*Healthy$/),
      expect.stringMatching(/^API.*Healthy$/),
      expect.stringMatching(/^Stored files.*Healthy$/),
    ]);
    expect(await page.getByRole("list", { name: "Recent servers" }).textContent()).toContain("Rogue Server");
    await page.screenshot({ path: screenshotPath("admin-dashboard"), fullPage: true });

    await page.goto(`${server.url}/admin/servers`);
    const row = page.getByTestId("admin-server-row").filter({ hasText: "Rogue Server" });
    expect(await row.textContent()).toContain("rogue.example.net");
    // View Details stays in the admin area: the owner's server, read-only, under All Servers.
    expect(await row.getByRole("link", { name: "View Details" }).getAttribute("href")).toMatch(/^\/admin\/servers\/[^/]+$/);
    await page.screenshot({ path: screenshotPath("admin-servers"), fullPage: true });
    await shoot(context, "/admin", "admin-dashboard");
    await shoot(context, "/admin/servers", "admin-servers");
    await row.getByRole("button", { name: "Delete Rogue Server" }).click();
    const dialog = page.getByRole("alertdialog");
    expect(await dialog.textContent()).toContain('Are you sure you want to delete server "Rogue Server"? This action cannot be undone.');
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await expect.poll(() => toast(page, "Server deleted").isVisible()).toBe(true);
    await expect.poll(() => row.count()).toBe(0);
    const usage = await server.ctx.db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", owner.teamId).executeTakeFirstOrThrow();
    expect(Number(usage.used_bytes)).toBe(0);
    await context.close();
  });
});
