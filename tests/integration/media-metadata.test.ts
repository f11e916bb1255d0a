/**
 * Video and audio keep no personal tags once served: a bodycam MP4 with a GPS location and an
 * officer's name, or an MP3 with an artist, reach viewers without them (as images lose EXIF/GPS),
 * while rotation, duration and streams survive. A server with stripping off keeps the bytes as sent.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { gameScreenshot, photoWithGps } from "../helpers/images.ts";
import type { TestServer } from "../helpers/server.ts";
import { form } from "../helpers/upload-fixtures.ts";

let server: TestServer;
let scratch: string;

interface Probe {
  format: { duration?: string; tags?: Record<string, string> };
  streams: { codec_type: string; tags?: Record<string, string>; side_data_list?: { rotation?: number }[] }[];
}

function probe(bytes: Buffer, demuxer: string): Probe {
  const file = path.join(scratch, `probe-${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(file, bytes);
  try {
    return JSON.parse(execFileSync("ffprobe", ["-v", "error", "-f", demuxer, "-show_format", "-show_streams", "-of", "json", file], { encoding: "utf8" }));
  } finally {
    fs.rmSync(file, { force: true });
  }
}

function ffmpeg(args: string[], out: string): Buffer {
  const file = path.join(scratch, out);
  execFileSync("ffmpeg", ["-v", "error", ...args, "-y", file]);
  return fs.readFileSync(file);
}

const allTags = (p: Probe) => ({ ...p.format.tags, ...Object.assign({}, ...p.streams.map((s) => s.tags ?? {})) });

/** A 2 s bodycam clip filmed upright on a phone (rotation 90), tagged with where and by whom. */
function bodycamClip(): Buffer {
  ffmpeg(["-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-f", "lavfi", "-i", "sine=duration=2", "-t", "2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"], "plain.mp4");
  return ffmpeg(
    ["-i", path.join(scratch, "plain.mp4"), "-c", "copy", "-metadata", "location=+48.8577+002.2950/", "-metadata", "artist=Officer Smith", "-metadata", "comment=Case 4411", "-metadata:s:v:0", "rotate=90"],
    "bodycam.mp4",
  );
}

async function upload(account: SeededAccount, bytes: Buffer, filename: string, type: string) {
  const res = await server.request("/api/upload?category=bodycam", { method: "POST", headers: { "x-api-key": account.key }, body: form([{ field: "file", data: bytes, filename, type }]) });
  expect(res.status).toBe(201);
  return res.json();
}

async function served(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

test.beforeAll(async ({ server: started }) => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "stash-metadata-"));
  server = started;
});

afterAll(async () => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("personal tags in video and audio", () => {
  it("an MP4's GPS location, artist and comment are gone from the served file; rotation, duration and streams stay", async () => {
    const account = await seedAccount(server.ctx);
    const clip = bodycamClip();
    const sent = probe(clip, "mp4");
    expect(allTags(sent)).toMatchObject({ location: "+48.8577+002.2950/", artist: "Officer Smith", comment: "Case 4411" });

    const body = await upload(account, clip, "bodycam.mp4", "video/mp4");
    // The answer says what was removed.
    expect(body.metadata_stripped).toEqual(expect.arrayContaining(["location", "artist", "comment"]));
    const bytes = await served(body.url);
    const got = probe(bytes, "mp4");
    const tags = allTags(got);
    for (const name of ["location", "location-eng", "artist", "comment"]) expect(tags).not.toHaveProperty(name);
    expect(JSON.stringify(got)).not.toContain("48.8577");
    expect(JSON.stringify(got)).not.toContain("Officer Smith");
    expect(got.streams.map((s) => s.codec_type)).toEqual(sent.streams.map((s) => s.codec_type));
    expect(got.streams.find((s) => s.codec_type === "video")?.side_data_list?.[0]?.rotation).toBe(90);
    expect(Number(got.format.duration)).toBeCloseTo(Number(sent.format.duration), 1);
    const record = await (await server.request(`/api/files/${body.id}`, { headers: { "x-api-key": account.key } })).json();
    expect(record.duration_ms).toBeGreaterThan(1500);

    // What is stored is what is charged.
    expect(body.file_size).toBe(bytes.length);
    expect((await getAccountQuota(server.ctx.db, account.teamId)).usedBytes).toBe(bytes.length);
  });

  it("an MP3's ID3 artist and title are gone, the audio is kept", async () => {
    const account = await seedAccount(server.ctx);
    const mp3 = ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "libmp3lame", "-metadata", "artist=Lamar Davis", "-metadata", "title=Confession", "-f", "mp3"], "tagged.mp3");
    expect(allTags(probe(mp3, "mp3"))).toMatchObject({ artist: "Lamar Davis", title: "Confession" });
    const body = await upload(account, mp3, "confession.mp3", "audio/mpeg");
    const got = probe(await served(body.url), "mp3");
    expect(allTags(got)).not.toHaveProperty("artist");
    expect(allTags(got)).not.toHaveProperty("title");
    expect(got.streams.map((s) => s.codec_type)).toEqual(["audio"]);
  });

  it("a clip without personal tags is stored byte for byte, and a server with stripping off keeps tags as sent", async () => {
    const plainAccount = await seedAccount(server.ctx);
    bodycamClip();
    const plain = fs.readFileSync(path.join(scratch, "plain.mp4"));
    const untouched = await upload(plainAccount, plain, "plain.mp4", "video/mp4");
    expect((await served(untouched.url)).equals(plain)).toBe(true);
    expect(untouched.metadata_stripped).toEqual([]);

    const keeping = await seedAccount(server.ctx);
    await server.ctx.db.updateTable("servers").set({ strip_metadata: false }).where("id", "=", keeping.serverId).execute();
    const clip = bodycamClip();
    const kept = await upload(keeping, clip, "bodycam.mp4", "video/mp4");
    expect((await served(kept.url)).equals(clip)).toBe(true);
    expect(kept.metadata_stripped).toEqual([]);
  });
});

describe("personal metadata in photos and PDFs", () => {
  it("a phone photo's EXIF (GPS, camera) is gone and the answer says so", async () => {
    const account = await seedAccount(server.ctx);
    const body = await upload(account, await photoWithGps(), "IMG_0042.jpg", "image/jpeg");
    expect(body.metadata_stripped).toContain("exif");
    expect((await sharp(await served(body.url)).metadata()).exif).toBeUndefined();
  });

  it("an authored PDF is rewritten without author, producer, title and XMP; its pages stay", async () => {
    const account = await seedAccount(server.ctx, { server: { allowedFileTypes: ["pdf"] } });
    const doc = await PDFDocument.create();
    const page = doc.addPage([640, 480]);
    page.drawText("Incident report 4411", { x: 20, y: 450, size: 14 });
    // An MDT export with its screenshot: a few hundred KB, so the upload arrives in many network chunks,
    // which the rewrite reads from the one buffer they were copied into (its end holds the cross-reference).
    page.drawImage(await doc.embedPng(await gameScreenshot(640, 360, 4, "png")), { x: 0, y: 60, width: 640, height: 360 });
    doc.setAuthor("Officer Jane Smith");
    doc.setProducer("LSPD MDT 2.3");
    doc.setTitle("Case 4411 - Grove Street");
    doc.setCreator("mdt-exporter");
    const authored = Buffer.from(await doc.save());
    expect((await PDFDocument.load(authored)).getAuthor()).toBe("Officer Jane Smith");
    expect(authored.length).toBeGreaterThan(200 * 1024);

    const body = await upload(account, authored, "report.pdf", "application/pdf");
    expect(body.metadata_stripped).toEqual(expect.arrayContaining(["author", "producer", "title", "creator"]));
    const bytes = await served(body.url);
    const reread = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(reread.getPageCount()).toBe(1);
    expect([reread.getAuthor(), reread.getProducer(), reread.getTitle(), reread.getCreator()]).toEqual([undefined, undefined, undefined, undefined]);
    // What is stored is what is charged.
    expect(body.file_size).toBe(bytes.length);
    expect((await getAccountQuota(server.ctx.db, account.teamId)).usedBytes).toBe(bytes.length);
  });

  it("a PDF it cannot rewrite is kept as sent, with a warning in the answer", async () => {
    const account = await seedAccount(server.ctx, { server: { allowedFileTypes: ["pdf"] } });
    // A PDF header with no readable body: stored, never rewritten.
    const broken = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(2048, 0x20), Buffer.from("\n%%EOF\n")]);
    const body = await upload(account, broken, "scan.pdf", "application/pdf");
    expect(body.metadata_stripped).toEqual([]);
    expect(body.metadata_warning).toMatch(/could not be removed/);
    expect((await served(body.url)).equals(broken)).toBe(true);
  });
});
