import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { DEFAULT_FILE_TYPES } from "../../app/lib/file-types.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { recordInChromium, type RecordedClip } from "../helpers/media-recorder.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { form, traceOf } from "../helpers/upload-fixtures.ts";
import type { FileId } from "../../app/lib/ids.ts";

const SECONDS = 2;
const PROBE = execFileSync("which", ["ffprobe"], { encoding: "utf8" }).trim();

let video: RecordedClip;
let voiceNote: RecordedClip;
let server: TestServer;
let scratch: string;

/** ffprobe's container duration in seconds, or "N/A" when the file does not carry one. */
function probedDuration(bytes: Buffer): string {
  const file = path.join(scratch, `probe-${Date.now()}-${Math.random().toString(36).slice(2)}.webm`);
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync(PROBE, ["-v", "error", "-f", "webm", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", file], { encoding: "utf8" }).trim();
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** A key on a server with the file types a new server gets. */
const newAccount = (on: TestServer) => seedAccount(on.ctx, { server: { allowedFileTypes: [...DEFAULT_FILE_TYPES] } });

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function upload(on: TestServer, who: SeededAccount, clip: Buffer, mimeType: string, filename: string) {
  const res = await on.request("/api/upload", {
    method: "POST",
    headers: { "x-api-key": who.key },
    body: form([{ field: "file", data: clip, filename, type: mimeType }]),
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body as { id: FileId; url: string; mime_type: string; size: number };
}

/** The file's details, its bytes as served from /f/, and what its account was charged. */
async function storedFile(on: TestServer, who: SeededAccount, uploaded: { id: FileId; url: string }) {
  const info = await (await on.request(`/api/files/${uploaded.id}`, { headers: { "x-api-key": who.key } })).json();
  const servedUrl = new URL(new URL(uploaded.url).pathname, on.url);
  const served = await fetch(servedUrl);
  expect(served.status).toBe(200);
  const bytes = Buffer.from(await served.arrayBuffer());
  const row = await on.ctx.db.selectFrom("files").select(["size_bytes", "sha256"]).where("id", "=", uploaded.id).executeTakeFirstOrThrow();
  return { info, bytes, row, servedUrl, trace: await traceOf(on, who) };
}

/** A recorded clip made playable: a duration near the recorded length, served, charged and hashed as stored. */
async function expectRemuxed(on: TestServer, who: SeededAccount, clip: RecordedClip, filename: string) {
  const uploaded = await upload(on, who, clip.bytes, clip.mimeType, filename);
  const { info, bytes, row, servedUrl, trace } = await storedFile(on, who, uploaded);

  expect(info.duration_ms).toBeGreaterThan((SECONDS - 0.5) * 1000);
  expect(info.duration_ms).toBeLessThan((SECONDS + 1.5) * 1000);
  expect(Number(probedDuration(bytes))).toBeCloseTo(info.duration_ms / 1000, 1);
  // The stored bytes are the remuxed copy, and everything recorded about the file describes them.
  expect(bytes.equals(clip.bytes)).toBe(false);
  expect(row.sha256).toBe(sha256(bytes));
  expect([Number(row.size_bytes), info.size, uploaded.size]).toEqual([bytes.length, bytes.length, bytes.length]);
  expect([Number(trace.usedBytes), Number(trace.serverUsedBytes), Number(trace.uploadBytes)]).toEqual([bytes.length, bytes.length, bytes.length]);

  const start = Math.floor(bytes.length / 2);
  const ranged = await fetch(servedUrl, { headers: { Range: `bytes=${start}-${start + 4095}` } });
  expect(ranged.status).toBe(206);
  expect(ranged.headers.get("content-range")).toBe(`bytes ${start}-${start + 4095}/${bytes.length}`);
  expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(start, start + 4096))).toBe(true);
  return { uploaded, info };
}

test.beforeAll(async ({ server: started }) => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "stash-recorder-"));
  const browser = await launchBrowser();
  try {
    // LB Phone's camera and voice notes: Chromium's MediaRecorder, written as it records.
    video = await recordInChromium(browser, { kind: "video", seconds: SECONDS, mimeType: "video/webm;codecs=vp9,opus" });
    voiceNote = await recordInChromium(browser, { kind: "audio", seconds: SECONDS, mimeType: "audio/webm;codecs=opus" });
  } finally {
    await browser.close();
  }
  server = started;
});

afterAll(async () => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe("MediaRecorder uploads", () => {
  it("are recorded without a duration", () => {
    expect(probedDuration(video.bytes)).toBe("N/A");
    expect(probedDuration(voiceNote.bytes)).toBe("N/A");
  });

  it("a VP9/Opus video is stored with a duration and seeks, charged at its stored size", async () => {
    const who = await newAccount(server);
    const { uploaded, info } = await expectRemuxed(server, who, video, "clip.webm");
    expect(uploaded.mime_type).toBe("video/webm");
    expect([info.width, info.height]).toEqual([320, 240]);
    expect(info.thumbnail_url).toBeTruthy();
  });

  it("an Opus voice note is stored with a duration and classified as audio", async () => {
    const who = await newAccount(server);
    const { uploaded, info } = await expectRemuxed(server, who, voiceNote, "voice.webm");
    expect(uploaded.mime_type).toBe("audio/webm");
    expect([info.width, info.height]).toEqual([null, null]);
  });

  it("a corrupt recording whose remux gives no playable copy is stored byte for byte", async () => {
    const who = await newAccount(server);
    // The recording's header and the start of its first cluster, then bytes that are no media at all.
    const firstCluster = video.bytes.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));
    const corrupt = Buffer.concat([video.bytes.subarray(0, firstCluster + 40), Buffer.alloc(20_000, 0x5a)]);
    expect(probedDuration(corrupt)).toBe("N/A");

    const uploaded = await upload(server, who, corrupt, "video/webm", "broken.webm");
    const { info, bytes, row, trace } = await storedFile(server, who, uploaded);
    expect(bytes.equals(corrupt)).toBe(true);
    expect(info.duration_ms).toBeNull();
    expect(row.sha256).toBe(sha256(corrupt));
    expect([Number(row.size_bytes), Number(trace.usedBytes), Number(trace.serverUsedBytes)]).toEqual([corrupt.length, corrupt.length, corrupt.length]);
    expect(trace.rows).toBe(1);
  });

  it("remuxes with the ffmpeg on PATH when FFMPEG_PATH and FFPROBE_PATH name it", async () => {
    const onPath = await startTestServer({ FFMPEG_PATH: "ffmpeg", FFPROBE_PATH: "ffprobe" });
    try {
      const who = await newAccount(onPath);
      await expectRemuxed(onPath, who, video, "clip.webm");
    } finally {
      await onPath.close();
    }
  });

  it("remuxes with the ffmpeg of the npm package when none is on PATH", async () => {
    const emptyBin = fs.mkdtempSync(path.join(scratch, "bin-"));
    const savedPath = process.env.PATH;
    process.env.PATH = emptyBin;
    let packaged: TestServer | undefined;
    try {
      expect(() => execFileSync("ffmpeg", ["-version"], { stdio: "ignore" })).toThrow();
      packaged = await startTestServer();
      const who = await newAccount(packaged);
      await expectRemuxed(packaged, who, video, "clip.webm");
    } finally {
      process.env.PATH = savedPath;
      await packaged?.close();
    }
  });
});
