import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { formatBytes } from "../../app/lib/format.ts";
import { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import { RESUMABLE_FROM_BYTES } from "../../app/lib/upload-client.ts";
import { deleteOwnedFiles } from "../../app/services/files/portal-files.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { makeVideoCopies } from "../../app/services/media/video-copies.server.ts";
import { signedInBrowserContext, signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import { screenshotPath } from "../helpers/browser.ts";
import { gameScreenshot } from "../helpers/images.ts";
import { testAudio } from "../helpers/media-fixtures.ts";
import { recordInChromium } from "../helpers/media-recorder.ts";
import type { TestServer } from "../helpers/server.ts";
import type { ServerId } from "../../app/lib/ids.ts";

let server: TestServer;
let browser: Browser;
let member: SignedInUser;
let serverId: ServerId;
let pngPath: string;

test.beforeAll(async ({ server: started, browser: launched }) => {
  server = started;
  browser = launched;
  member = await signUpAndSignIn(server, { displayName: "Gallery Tester" });
  serverId = (await createServer(server.ctx.db, { teamId: member.teamId, name: "Los Santos RP" })).id;
  // Big enough (a few MB) that the progress bar is seen moving before the upload finishes.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-e2e-"));
  pngPath = path.join(dir, "bank-heist.png");
  fs.writeFileSync(pngPath, await gameScreenshot(1600, 900, 7, "png"));
});

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: screenshotPath(name), fullPage: true });
}

describe("media screens as a new user", () => {
  it("uploads a PNG with visible progress, sees it in the gallery and storage manager, deletes it and usage drops", async () => {
    const context = await signedInBrowserContext(browser, server, member, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();

    await page.goto(`${server.url}/upload?server=${serverId}`);
    expect(await page.getByLabel("Server").inputValue()).toBe(serverId);
    expect(await page.getByLabel("Category").inputValue()).toBe("other");
    await page.getByLabel("or choose files").setInputFiles(pngPath);
    await page.getByLabel("Player name (optional)").fill("John Doe");
    await page.getByLabel("Category").selectOption("screenshots");
    await shoot(page, "upload-ready-desktop");

    // Throttle the upload so the real XHR progress is observable.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 400_000 });
    const progress = page.getByRole("progressbar", { name: "Upload progress of bank-heist.png" });
    await page.getByRole("button", { name: "Upload File" }).click();
    await expect.poll(async () => Number(await progress.getAttribute("aria-valuenow")), { timeout: 20_000 }).toBeGreaterThan(0);
    const midway = Number(await progress.getAttribute("aria-valuenow"));
    await shoot(page, "upload-progress-desktop");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const result = page.getByTestId("upload-result");
    await result.waitFor({ timeout: 30_000 }).catch(async (error) => {
      await shoot(page, "upload-failure");
      throw error;
    });
    expect(midway).toBeLessThan(100);
    expect(await result.textContent()).toContain("bank-heist.png");
    // New servers store PNG/JPEG screenshots as WebP (convert_to_webp is on by default).
    expect(await result.textContent()).toContain("image/webp");
    const publicUrl = await page.getByLabel("Public URL of bank-heist.png").inputValue();
    expect(publicUrl).toMatch(new RegExp(`/f/${serverId}/screenshots/`));
    await shoot(page, "upload-done-desktop");

    const file = await server.ctx.db.selectFrom("files").selectAll().where("team_id", "=", member.teamId).executeTakeFirstOrThrow();
    expect(file.player_name).toBe("John Doe");
    const usedAfterUpload = (await getAccountQuota(server.ctx.db, member.teamId)).usedBytes;
    expect(usedAfterUpload).toBe(file.size_bytes);

    await page.goto(`${server.url}/gallery`);
    const card = page.getByTestId("media-card").first();
    await card.waitFor();
    expect(await card.textContent()).toContain("bank-heist.png");
    expect(await card.textContent()).toContain("Player: John Doe");
    const thumb = card.locator("img");
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeLessThanOrEqual(320);
    await shoot(page, "gallery-desktop");

    // Lightbox: opens on the card, Esc closes.
    await card.getByRole("button", { name: "Preview bank-heist.png" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await expect.poll(() => dialog.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1600);
    await dialog.locator("img").evaluate((img: HTMLImageElement) => img.decode());
    await shoot(page, "gallery-lightbox-desktop");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // Download saves under the original name.
    const [download] = await Promise.all([page.waitForEvent("download"), card.getByRole("button", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toBe("bank-heist.png");
    await page.getByText("Download started").waitFor();

    await page.goto(`${server.url}/storage`);
    await page.getByTestId("storage-row").first().waitFor();
    // One size format on every screen: the Storage Manager, the dashboard and Billing print the
    // same figure for the same bytes, in the unit that fits it (not "0.00 GB" for a few MB).
    const used = formatBytes((await getAccountQuota(server.ctx.db, member.teamId)).usedBytes);
    expect(used).toMatch(/ (KB|MB)$/);
    expect(await page.getByTestId("storage-used").textContent()).toBe(`${used} / 5 GB`);
    await shoot(page, "storage-desktop");
    await page.goto(`${server.url}/dashboard`);
    expect(await page.getByRole("region", { name: "Statistics" }).textContent()).toContain(`Storage Used${used}of 5 GB available`);
    await page.goto(`${server.url}/billing`);
    await expect.poll(() => page.getByTestId("storage-quota").textContent()).toBe(`${used} of 5 GB`);
    await page.goto(`${server.url}/storage`);
    await page.getByTestId("storage-row").first().waitFor();

    await page.getByRole("button", { name: "Delete bank-heist.png" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await page.getByText("No files stored yet").waitFor();
    await page.getByText("File deleted").waitFor();
    await expect.poll(() => page.getByTestId("storage-used").textContent()).toMatch(/^0 B \//);
    expect((await getAccountQuota(server.ctx.db, member.teamId)).usedBytes).toBe(0);
    await shoot(page, "storage-empty-desktop");

    await page.goto(`${server.url}/gallery`);
    await page.getByText("Upload your first media file to get started").waitFor();
    await context.close();
  }, 120_000);

  it("bulk-deletes from the gallery, moves through the lightbox with the arrow keys and lays out at 375 px", async () => {
    const buffers = await Promise.all([1, 2, 3].map((seed) => gameScreenshot(640, 360, seed, "png")));
    const context = await signedInBrowserContext(browser, server, member, { viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    for (const [i, buffer] of buffers.entries()) {
      const res = await page.request.post(`${server.url}/api/portal/upload?server_id=${serverId}`, {
        headers: { Origin: server.url },
        multipart: { category: "phone_camera", file: { name: `selfie-${i + 1}.png`, mimeType: "image/png", buffer } },
      });
      expect(res.status(), await res.text()).toBe(201);
    }

    await page.goto(`${server.url}/upload`);
    await page.getByRole("button", { name: "Upload File" }).waitFor();
    expect(await page.getByRole("button", { name: "Upload File" }).isDisabled()).toBe(true);
    await shoot(page, "upload-mobile");

    await page.goto(`${server.url}/gallery?category=phone_camera`);
    await page.getByTestId("media-card").nth(2).waitFor();
    await shoot(page, "gallery-mobile");
    const widths = await page.getByTestId("media-card").evaluateAll((cards) => cards.map((c) => c.getBoundingClientRect().width));
    for (const width of widths) expect(width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await page.getByRole("button", { name: "Preview selfie-3.png" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("selfie-3.png").waitFor();
    await page.keyboard.press("ArrowRight");
    await dialog.getByRole("heading", { name: "selfie-2.png" }).waitFor();
    await page.keyboard.press("ArrowLeft");
    await dialog.getByRole("heading", { name: "selfie-3.png" }).waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    await page.getByRole("checkbox", { name: "Select selfie-1.png" }).click();
    await page.getByRole("checkbox", { name: "Select selfie-2.png" }).click();
    await page.getByRole("button", { name: "Delete selected (2)" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => page.getByTestId("media-card").count()).toBe(1);
    const left = await server.ctx.db.selectFrom("files").select("original_filename").where("team_id", "=", member.teamId).execute();
    expect(left.map((f) => f.original_filename)).toEqual(["selfie-3.png"]);

    await page.goto(`${server.url}/storage`);
    await page.getByTestId("storage-row").first().waitFor();
    await shoot(page, "storage-mobile");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await page.goto(`${server.url}/gallery?q=nothing-matches`);
    await page.getByText("No files match your current filters").waitFor();
    await context.close();
  }, 90_000);

  it("View opens the file in a new tab; a file that is gone gives the \"View failed\" toast instead of an error tab", async () => {
    const viewer = await signUpAndSignIn(server);
    const viewerServer = (await createServer(server.ctx.db, { teamId: viewer.teamId, name: "Viewing RP" })).id;
    const context = await signedInBrowserContext(browser, server, viewer, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    for (const [seed, name] of ["kept.png", "gone.png"].entries()) {
      const res = await page.request.post(`${server.url}/api/portal/upload?server_id=${viewerServer}`, {
        headers: { Origin: server.url },
        multipart: { file: { name, mimeType: "image/png", buffer: await gameScreenshot(320, 180, seed + 11, "png") } },
      });
      expect(res.status(), await res.text()).toBe(201);
    }
    const files = await server.ctx.db.selectFrom("files").select(["id", "original_filename"]).where("team_id", "=", viewer.teamId).execute();
    const idOf = (name: string) => files.find((f) => f.original_filename === name)!.id;

    await page.goto(`${server.url}/gallery`);
    const card = (name: string) => page.getByTestId("media-card").filter({ hasText: name });
    await card("gone.png").waitFor();

    const [tab] = await Promise.all([context.waitForEvent("page"), card("kept.png").getByRole("link", { name: "View" }).click()]);
    await tab.waitForURL(`${server.url}/api/media/${idOf("kept.png")}`);
    expect(await tab.evaluate(() => document.contentType)).toBe("image/webp");
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();

    // Deleted elsewhere (another tab, retention) while this gallery still shows it.
    expect(await deleteOwnedFiles(server.ctx, viewer.teamId, [idOf("gone.png")])).toEqual([idOf("gone.png")]);
    const opened: Page[] = [];
    context.on("page", (p) => opened.push(p));
    await card("gone.png").getByRole("link", { name: "View" }).click();
    await page.getByText("View failed").waitFor();
    await page.getByText("File not found").waitFor();
    await expect.poll(() => opened.every((p) => p.isClosed())).toBe(true);
    expect(context.pages()).toEqual([page]);
    await shoot(page, "gallery-view-failed-desktop");

    // The lightbox's View takes the same path.
    await card("kept.png").getByRole("button", { name: "Preview kept.png" }).click();
    const [fromLightbox] = await Promise.all([context.waitForEvent("page"), page.getByRole("dialog").getByRole("link", { name: "View" }).click()]);
    await fromLightbox.waitForURL(`${server.url}/api/media/${idOf("kept.png")}`);
    await context.close();
  }, 60_000);

  it("plays a MediaRecorder video in the lightbox with a finite duration and seeks in it", async () => {
    // Recorded in this browser as LB Phone records: a WebM with no duration until the remux on arrival.
    const clip = await recordInChromium(browser, { kind: "video", seconds: 2, mimeType: "video/webm;codecs=vp9,opus" });
    const filmer = await signUpAndSignIn(server);
    const phoneServer = (await createServer(server.ctx.db, { teamId: filmer.teamId, name: "Phone RP" })).id;
    const context = await signedInBrowserContext(browser, server, filmer, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const res = await page.request.post(`${server.url}/api/portal/upload?server_id=${phoneServer}`, {
      headers: { Origin: server.url },
      multipart: { category: "phone_videos", file: { name: "dashcam.webm", mimeType: clip.mimeType, buffer: clip.bytes } },
    });
    expect(res.status(), await res.text()).toBe(201);

    await page.goto(`${server.url}/gallery`);
    await page.getByRole("button", { name: "Preview dashcam.webm" }).click();
    const video = page.getByRole("dialog").locator("video");
    const duration = await video.evaluate(async (v: HTMLVideoElement) => {
      if (v.readyState < HTMLMediaElement.HAVE_METADATA) await new Promise((resolve) => v.addEventListener("loadedmetadata", resolve, { once: true }));
      return v.duration;
    });
    expect(Number.isFinite(duration)).toBe(true);
    expect(duration).toBeGreaterThan(1.5);
    expect(duration).toBeLessThan(3.5);
    const landed = await video.evaluate(async (v: HTMLVideoElement, to: number) => {
      const seeked = new Promise((resolve) => v.addEventListener("seeked", resolve, { once: true }));
      v.currentTime = to;
      await seeked;
      return v.currentTime;
    }, duration * 0.75);
    expect(landed).toBeCloseTo(duration * 0.75, 1);
    await shoot(page, "gallery-lightbox-video-desktop");
    await context.close();
  }, 60_000);

  it("makes a MediaRecorder clip's MP4 copy, which plays and seeks in Chromium and is what its share page embeds", async () => {
    const clip = await recordInChromium(browser, { kind: "video", seconds: 3, mimeType: "video/webm;codecs=vp9,opus" });
    const filmer = await signUpAndSignIn(server);
    await server.ctx.db.updateTable("subscriptions").set({ tier: "starter", status: "active" }).where("team_id", "=", filmer.teamId).execute();
    const phoneServer = (await createServer(server.ctx.db, { teamId: filmer.teamId, name: "Bodycam RP" })).id;
    const context = await signedInBrowserContext(browser, server, filmer, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const res = await page.request.post(`${server.url}/api/portal/upload?server_id=${phoneServer}`, {
      headers: { Origin: server.url },
      multipart: { category: "bodycam", file: { name: "bodycam.webm", mimeType: clip.mimeType, buffer: clip.bytes } },
    });
    expect(res.status(), await res.text()).toBe(201);
    const uploaded = (await res.json()) as { id: string; url: string };
    // The background job, run here at once rather than on its next minute.
    await makeVideoCopies(server.ctx);

    await page.goto(`${server.url}/v/${uploaded.id}`);
    const ogVideo = await page.locator('meta[property="og:video"]').getAttribute("content");
    expect(ogVideo).toBe(`${uploaded.url}?format=mp4`);
    const video = page.locator("video");
    expect(await video.getAttribute("src")).toBe(ogVideo);
    const duration = await video.evaluate(async (v: HTMLVideoElement) => {
      if (v.readyState < HTMLMediaElement.HAVE_METADATA) await new Promise((resolve, reject) => {
        v.addEventListener("loadedmetadata", resolve, { once: true });
        v.addEventListener("error", () => reject(new Error(`video error ${v.error?.code}`)), { once: true });
      });
      return v.duration;
    });
    expect(duration).toBeGreaterThan(2.5);
    expect(duration).toBeLessThan(4.5);
    const landed = await video.evaluate(async (v: HTMLVideoElement, to: number) => {
      const seeked = new Promise((resolve) => v.addEventListener("seeked", resolve, { once: true }));
      v.currentTime = to;
      await seeked;
      return v.currentTime;
    }, duration * 0.6);
    expect(landed).toBeCloseTo(duration * 0.6, 1);
    await shoot(page, "share-page-video");
    await context.close();
  }, 90_000);

  it("sends a large file over the resumable path, pauses it and resumes where it stopped", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-e2e-tus-"));
    const wavPath = path.join(dir, "dispatch-recording.wav");
    const wav = testAudio("wav", 110);
    expect(wav.length).toBeGreaterThan(RESUMABLE_FROM_BYTES);
    fs.writeFileSync(wavPath, wav);
    const before = (await getAccountQuota(server.ctx.db, member.teamId)).usedBytes;

    const context = await signedInBrowserContext(browser, server, member, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/upload?server=${serverId}`);
    await page.getByLabel("or choose files").setInputFiles(wavPath);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 1_500_000 });
    const progress = page.getByRole("progressbar", { name: "Upload progress of dispatch-recording.wav" });
    await page.getByRole("button", { name: "Upload File" }).click();
    await expect.poll(async () => Number(await progress.getAttribute("aria-valuenow")), { timeout: 30_000 }).toBeGreaterThan(0);

    await page.getByRole("button", { name: "Pause dispatch-recording.wav" }).click();
    const resume = page.getByRole("button", { name: "Resume dispatch-recording.wav" });
    await resume.waitFor();
    const paused = Number(await progress.getAttribute("aria-valuenow"));
    await page.waitForTimeout(1500);
    // Nothing is sent while paused.
    expect(Number(await progress.getAttribute("aria-valuenow"))).toBe(paused);
    expect(await page.getByTestId("upload-item").textContent()).toContain(`Paused at ${paused}%`);
    await shoot(page, "upload-paused-desktop");

    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await resume.click();
    const result = page.getByTestId("upload-result");
    await result.waitFor({ timeout: 60_000 });
    expect(await result.textContent()).toContain("dispatch-recording.wav");

    const row = await server.ctx.db.selectFrom("files").select(["size_bytes", "original_filename"]).where("original_filename", "=", "dispatch-recording.wav").executeTakeFirstOrThrow();
    expect((await getAccountQuota(server.ctx.db, member.teamId)).usedBytes).toBe(before + Number(row.size_bytes));
    const partials = path.join(server.dataDir, "tus");
    expect(fs.existsSync(partials) ? fs.readdirSync(partials) : []).toEqual([]);
    await context.close();
  });

  it("tells a user without servers to create one first", async () => {
    const fresh = await signUpAndSignIn(server);
    const context = await signedInBrowserContext(browser, server, fresh, { viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/upload`);
    await page.getByText("No servers available - Create a server first to start uploading files.").waitFor();
    await shoot(page, "upload-no-servers-desktop");
    await context.close();
  });
});
