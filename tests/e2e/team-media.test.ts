/**
 * A staff team's private media in the browser: an invited member sees the thumbnail, opens the file
 * and downloads the same bytes the team's key gets; the owner hands the team on and leaves, and
 * their old session then gets the 404 anyone outside the team gets. The team is made on /team, so
 * its id is nobody's (a personal team's id once equalled its owner's and hid exactly this).
 */
import fs from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { signedInBrowserContext } from "../helpers/auth.ts";
import { screenshotPath } from "../helpers/browser.ts";
import { test } from "../helpers/fixtures.ts";
import { gameScreenshot } from "../helpers/images.ts";
import { staffTeam } from "../helpers/teams.ts";
import { form } from "../helpers/upload-fixtures.ts";

const DESKTOP = { width: 1280, height: 900 };

/** What the browser shows for a URL it opens itself: the status, the content type and the body. */
async function open(page: Page, url: string) {
  const res = await page.goto(url);
  if (!res) throw new Error(`no answer for ${url}`);
  return { status: res.status(), type: res.headers()["content-type"] ?? "", body: await res.text() };
}

describe("a staff team's private media in the browser", () => {
  test("a member sees, opens and downloads a private image; the owner who left gets a 404 on each", { timeout: 180_000 }, async ({ server, browser }) => {
    const team = await staffTeam(server, "Bolingbroke");
    const uploaded = await server.request("/api/upload", {
      method: "POST",
      headers: { "x-api-key": team.key },
      body: form([
        { field: "is_public", data: "false" },
        { field: "file", data: await gameScreenshot(640, 360, 3, "png"), filename: "cell-block-c.png", type: "image/png" },
      ]),
    });
    expect(uploaded.status).toBe(201);
    const { id } = (await uploaded.json()) as { id: string };
    const byKey = await server.request(`/api/download/${id}`, { headers: { "x-api-key": team.key } });
    expect(byKey.status).toBe(200);
    const keyBytes = Buffer.from(await byKey.arrayBuffer());

    // The member: the private card with its thumbnail, View in a new tab, Download.
    const memberContext = await signedInBrowserContext(browser, server, team.member, { viewport: DESKTOP, acceptDownloads: true });
    const page = await memberContext.newPage();
    await page.goto(`${server.url}/gallery`);
    const card = page.getByTestId("media-card").filter({ hasText: "cell-block-c.png" });
    await card.waitFor();
    expect(await card.textContent()).toContain("Private");
    const thumb = card.locator("img");
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath("team-member-private-gallery"), fullPage: true });

    const [tab] = await Promise.all([memberContext.waitForEvent("page"), card.getByRole("link", { name: "View" }).click()]);
    await tab.waitForURL(`${server.url}/api/media/${id}`);
    await expect.poll(() => tab.evaluate(() => document.images[0]?.naturalWidth ?? 0), { timeout: 20_000 }).toBe(640);
    await tab.close();

    const [download] = await Promise.all([page.waitForEvent("download"), card.getByRole("button", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^cell-block-c\.(png|webp)$/);
    const saved = await download.path();
    expect(fs.readFileSync(saved).equals(keyBytes)).toBe(true);
    await page.getByText("Download started").waitFor();

    // The owner makes the admin owner and leaves, through the Team page.
    const ownerContext = await signedInBrowserContext(browser, server, team.owner, { viewport: DESKTOP });
    const ownerPage = await ownerContext.newPage();
    ownerPage.on("dialog", (dialog) => void dialog.accept());
    expect((await open(ownerPage, `${server.url}/api/media/${id}?thumb=1`)).status).toBe(200);
    await ownerPage.goto(`${server.url}/team`);
    const rows = ownerPage.getByRole("list", { name: "Members" }).getByTestId("member-row");
    await rows.filter({ hasText: team.admin.email }).getByRole("button", { name: "Make owner" }).click();
    await expect.poll(() => ownerPage.locator("[data-sonner-toast]").filter({ hasText: "Ownership transferred" }).isVisible()).toBe(true);
    await rows.filter({ hasText: "(you)" }).getByRole("button", { name: "Leave team" }).click();
    await ownerPage.waitForURL(`${server.url}/dashboard`);

    // Thumbnail, View and Download all answer the former owner as they answer a stranger: a JSON 404 that names nothing.
    for (const query of ["?thumb=1", "", "?download=1"]) {
      const answer = await open(ownerPage, `${server.url}/api/media/${id}${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 404 });
      expect(answer.type).toContain("application/json");
      expect(JSON.parse(answer.body)).toMatchObject({ success: false, code: "not_found", error: "File not found" });
      expect(answer.body).not.toContain("cell-block");
    }
    await ownerPage.goto(`${server.url}/gallery`);
    await ownerPage.getByRole("heading", { name: "Media Gallery" }).waitFor();
    expect(await ownerPage.getByText("cell-block-c.png").count()).toBe(0);
    // The member still sees it.
    await page.reload();
    await expect.poll(() => card.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

    await Promise.all([memberContext.close(), ownerContext.close()]);
  });
});
