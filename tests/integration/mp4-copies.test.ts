/**
 * Every video gets an MP4 copy within its size cap: short, low-bitrate clips recorded by Chromium's
 * MediaRecorder as LB Phone records them (VP8 and VP9, 2–5 s, 200–600 kbit/s), whose copies used to come
 * out at nearly twice the original and were dropped, and a long one. Each copy is H.264/AAC, at most
 * 1.5× the original, plays in Chromium and shows as ready on the file's page. A copy that cannot be made
 * within the cap says why, there.
 */
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { describe, expect } from "vitest";
import type { FileId } from "../../app/lib/ids.ts";
import { MP4_COPY_VARIANT } from "../../app/services/media/transforms.server.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { createSessionCookie } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import { recordInChromium } from "../helpers/media-recorder.ts";
import type { TestServer } from "../helpers/server.ts";
import { form } from "../helpers/upload-fixtures.ts";

const run = promisify(execFile);
let server: TestServer;
let owner: SeededAccount;
let cookie: string;
let longClip: Buffer;
let stillWithVoice: Buffer;
let shortClip: Buffer;

test.beforeAll(async ({ server: started }) => {
  // Made before any request: a synchronous encode between requests holds this process's event loop, and a
  // keep-alive socket whose close was due meanwhile is reused by fetch and reset by the server.
  longClip = ffmpegClip([
    "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30",
    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
    "-t", "60",
    "-c:v", "libvpx-vp9", "-b:v", "400k", "-deadline", "realtime", "-cpu-used", "8",
    "-c:a", "libopus", "-b:a", "48k",
  ]);
  stillWithVoice = ffmpegClip([
    "-f", "lavfi", "-i", "color=c=gray:s=320x240:r=30",
    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
    "-t", "20",
    "-c:v", "libvpx-vp9", "-b:v", "10k",
    "-c:a", "libopus", "-b:a", "6k",
  ]);
  shortClip = ffmpegClip(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "2", "-c:v", "libvpx-vp9", "-b:v", "200k"]);
  server = started;
  owner = await seedAccount(server.ctx, { server: { allowedFileTypes: ["webm", "mp4"] }, permissions: ["upload", "read", "delete"] });
  // A paid plan: copies are queued at upload.
  await server.ctx.db.updateTable("subscriptions").set({ tier: "starter", status: "active" }).where("team_id", "=", owner.teamId).execute();
  cookie = (await createSessionCookie(server.ctx, owner.userId)).cookie;
});

/** A clip made by ffmpeg (lavfi sources), VP9/Opus in WebM. */
function ffmpegClip(args: string[]): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-clip-"));
  try {
    execFileSync("ffmpeg", ["-v", "error", ...args, "-y", path.join(dir, "clip.webm")]);
    return fs.readFileSync(path.join(dir, "clip.webm"));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function codecsOf(bytes: Buffer): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-probe-"));
  try {
    fs.writeFileSync(path.join(dir, "f.mp4"), bytes);
    const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "json", path.join(dir, "f.mp4")]);
    return (JSON.parse(stdout) as { streams: { codec_name: string }[] }).streams.map((s) => s.codec_name);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function upload(clip: Buffer, filename: string) {
  const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": owner.key }, body: form([{ field: "file", data: clip, filename }]) });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: FileId; url: string; file_size: number };
}

const fileRow = (id: FileId) => server.ctx.db.selectFrom("files").select(["mp4_wanted_at", "mp4_failed_at", "mp4_failure"]).where("id", "=", id).executeTakeFirstOrThrow();
const copyRow = (id: FileId) => server.ctx.db.selectFrom("file_variants").selectAll().where("file_id", "=", id).where("variant", "=", MP4_COPY_VARIANT).executeTakeFirst();

/** Runs the copy job, which works until nothing is queued; the file's request is then settled. */
async function copySettled(id: FileId) {
  await server.runJob(BACKGROUND_JOBS.videoCopies);
  expect((await fileRow(id)).mp4_wanted_at).toBeNull();
}

/** The file's page in the portal, as its owner sees it: the "MP4 copy" line. */
async function copyLineOnPage(id: string): Promise<string> {
  const page = await server.request(`/gallery/${id}`, { headers: { Cookie: cookie } });
  expect(page.status).toBe(200);
  const html = await page.text();
  const line = /data-testid="mp4-copy"[^>]*>([^<]*)</.exec(html);
  return (line?.[1] ?? "").replaceAll("&#x27;", "'").replaceAll("&amp;", "&");
}

/** Plays the copy in Chromium from the start for half a second: it decodes, has a picture and moves. */
async function playsInChromium(browser: Browser, url: string) {
  const page = await browser.newPage();
  try {
    await page.goto(`${server.url}/`);
    return await page.evaluate(async (src) => {
      const video = document.createElement("video");
      video.muted = true;
      video.src = src;
      document.body.append(video);
      await video.play();
      await new Promise<void>((resolve, reject) => {
        const check = () => (video.currentTime >= 0.5 || video.ended ? resolve() : video.error ? reject(new Error(`media error ${video.error.code}`)) : setTimeout(check, 50));
        check();
      });
      return { width: video.videoWidth, height: video.videoHeight, played: video.currentTime, error: video.error?.code ?? null };
    }, url);
  } finally {
    await page.close();
  }
}

describe("MP4 copies of short, low-bitrate phone clips", () => {
  const recorded: [codec: "vp8" | "vp9", seconds: number, kbps: number][] = [
    ["vp9", 3, 400],
    ["vp8", 2, 200],
    ["vp9", 2, 200],
    ["vp8", 4, 300],
    ["vp9", 5, 600],
  ];

  test.for(recorded)("a %s clip of %i s at %i kbit/s recorded by MediaRecorder gets a copy within the cap that plays", { timeout: 180_000 }, async ([codec, seconds, kbps], { browser }) => {
    const clip = await recordInChromium(browser, { kind: "video", seconds, mimeType: `video/webm;codecs=${codec},opus`, videoBitsPerSecond: kbps * 1000, scene: "camera" });
    expect(clip.mimeType).toContain(codec);
    const file = await upload(clip.bytes, `phone-${codec}.webm`);
    await copySettled(file.id);
    expect(await fileRow(file.id)).toMatchObject({ mp4_failed_at: null, mp4_failure: null });
    const copy = (await copyRow(file.id))!;
    expect(copy).toBeDefined();
    // The cap is on the stored original (the recording remuxed so it has a duration).
    expect(Number(copy.size_bytes)).toBeLessThanOrEqual(file.file_size * 1.5);

    const res = await fetch(`${file.url}?format=mp4`);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(await codecsOf(Buffer.from(await res.arrayBuffer()))).toEqual(["h264", "aac"]);
    const played = await playsInChromium(browser, `${file.url}?format=mp4`);
    expect(played).toMatchObject({ width: 320, height: 240, error: null });
    expect(await copyLineOnPage(file.id)).toMatch(/^Ready \(/);
    // The share page points embeds at the copy.
    expect(await (await server.request(`/v/${file.id}`)).text()).toContain(`<meta property="og:video" content="${file.url}?format=mp4"`);
  });

  test("a long clip (60 s, VP9 at 400 kbit/s) gets one too", { timeout: 240_000 }, async ({ browser }) => {
    const file = await upload(longClip, "bodycam.webm");
    await copySettled(file.id);
    const copy = (await copyRow(file.id))!;
    expect(Number(copy.size_bytes)).toBeLessThanOrEqual(file.file_size * 1.5);
    expect(await playsInChromium(browser, `${file.url}?format=mp4`)).toMatchObject({ width: 640, height: 360, error: null });
  });

  test("a copy that cannot fit says why on the file's page: a still picture with a 6 kbit/s voice note (AAC needs more)", { timeout: 120_000 }, async () => {
    const file = await upload(stillWithVoice, "voice-note.webm");
    await copySettled(file.id);
    const row = await fileRow(file.id);
    expect(row.mp4_failed_at).not.toBeNull();
    expect(row.mp4_failure).toMatch(/^The MP4 copy came out past its size cap \(1\.5× the original\) once: \d\.\d\d× at 30 kbit\/s\.$/);
    expect(await copyRow(file.id)).toBeUndefined();
    expect(await copyLineOnPage(file.id)).toBe(`Not made: ${row.mp4_failure}`);
  });

  test("a video ffmpeg cannot read has ffmpeg's words on its page", { timeout: 120_000 }, async () => {
    const file = await upload(shortClip, "broken.webm");
    const { storage_key } = await server.ctx.db.selectFrom("files").select("storage_key").where("id", "=", file.id).executeTakeFirstOrThrow();
    // The stored bytes damaged after the upload (a bad disk, a partial restore).
    await server.ctx.blobs.put(storage_key, Buffer.alloc(4096, 0x42), { contentType: "video/webm" });
    await copySettled(file.id);
    const row = await fileRow(file.id);
    expect(row.mp4_failure).toBe("ffmpeg could not make the MP4 copy: the video: Invalid data found when processing input");
    expect(await copyLineOnPage(file.id)).toBe(`Not made: ${row.mp4_failure}`);
  });
});
