import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stashTest } from "../helpers/fixtures.ts";
import { signedInBrowserContext, signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import { screenshotPath } from "../helpers/browser.ts";
import { startDiscordStandIn, type DiscordStandIn } from "../helpers/discord-standin.ts";
import { CHANNEL, EXPORT_NAME, FIXTURE_ATTACHMENTS, fixtureExport, seedFixtureAttachments } from "../helpers/imports.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";
import type { TestServer } from "../helpers/server.ts";

let discord: DiscordStandIn;
let exportPath: string;
beforeAll(async () => {
  discord = await startDiscordStandIn();
  await seedFixtureAttachments(discord);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-e2e-import-"));
  exportPath = path.join(dir, EXPORT_NAME);
  fs.writeFileSync(exportPath, JSON.stringify(fixtureExport("remote")));
});
afterAll(() => discord.close());

const test = stashTest(() => discord.env);
let server: TestServer;
let browser: Browser;
let owner: SignedInUser;
test.beforeAll(async ({ server: started, browser: launched }) => {
  server = started;
  browser = launched;
  owner = await signUpAndSignIn(server, { displayName: "Import Tester" });
  await createServer(server.ctx.db, { teamId: owner.teamId, name: "Los Santos RP" });
});

describe("the Import page", () => {
  it("starts an import from a DiscordChatExporter export, shows its progress live, then its report", async () => {
    const context = await signedInBrowserContext(browser, server, owner, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/import`);
    await page.getByRole("link", { name: "Import" }).first().waitFor();
    expect(await page.getByLabel("Source").inputValue()).toBe("discord_export");

    // A refusal shows under its field.
    await page.getByLabel("Export (.json or .zip)").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not an export") });
    await page.getByRole("button", { name: "Start import" }).click();
    await expect.poll(() => page.locator("#import-file-error").textContent()).toMatch(/^Upload the DiscordChatExporter export as its \.json file/);

    await page.getByLabel("Export (.json or .zip)").setInputFiles(exportPath);
    await page.getByLabel("Bot token (optional)").fill(discord.token);
    // The second file waits at Discord, so the page is seen part-way.
    const held = discord.hold(FIXTURE_ATTACHMENTS[1].attachmentId);
    await page.getByRole("button", { name: "Start import" }).click();
    await page.getByText("Waiting to start").waitFor();

    const run = server.runJob(BACKGROUND_JOBS.imports);
    await held.reached;
    await expect.poll(() => page.getByText("Importing").count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath("import-progress-desktop"), fullPage: true });
    held.release();
    await run;

    await page.getByText("Finished").waitFor({ timeout: 20_000 });
    const progress = page.getByRole("progressbar", { name: "Import progress" });
    expect(await progress.getAttribute("aria-valuenow")).toBe("100");
    expect(await page.getByText("of 4 files").textContent()).toContain("4 of 4 files");
    await expect.poll(() => page.getByText("Deleted on Discord: 1").count()).toBe(1);
    expect(await page.getByText("UPDATE IGNORE `phone_photos`").count()).toBe(1);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download link map (CSV)" }).click();
    const csv = fs.readFileSync((await (await download).path())!, "utf8");
    expect(csv).toContain(`${server.url}/dc/attachments/${CHANNEL}/${FIXTURE_ATTACHMENTS[0].attachmentId}/IMG_2041.png`);
    await page.screenshot({ path: screenshotPath("import-report-desktop"), fullPage: true });

    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await context.close();
  });
});
