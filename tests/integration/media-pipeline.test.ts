import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import pino from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../app/services/platform/env.server.ts";
import { DomainError } from "../../app/services/platform/domain-error.server.ts";
import { ERROR_STATUS } from "../../app/http/api-response.server.ts";
import { processUploadedMedia, type MediaDeps, type StoredUpload } from "../../app/services/media/process-upload.server.ts";
import { DiskBlobStore } from "../../storage/disk.ts";
import { gameScreenshot, photoWithGps, ssim } from "../helpers/images.ts";
import { gifWithFrames, liveRecording, pngBomb, testClip, testTone } from "../helpers/media-fixtures.ts";

let root: string;
let deps: MediaDeps;
const settings = { stripMetadata: true, convertToWebp: true };

async function store(bytes: Buffer, mimeType: string, extension: string): Promise<StoredUpload> {
  const filename = `${randomBytes(6).toString("hex")}.${extension}`;
  const storageKey = `srv/cat/${filename}`;
  const put = await deps.blobs.put(storageKey, Readable.from([bytes]));
  return { storageKey, filename, mimeType, size: put.size, sha256: put.sha256 };
}

async function read(key: string): Promise<Buffer> {
  const blob = await deps.blobs.get(key);
  if (!blob) throw new Error(`missing blob ${key}`);
  return buffer(blob.stream);
}

/** Which of red, green and blue an image is mostly made of. */
async function dominantChannel(image: Buffer): Promise<string> {
  const { channels } = await sharp(image).stats();
  const means = channels.slice(0, 3).map((channel) => channel.mean);
  return ["red", "green", "blue"][means.indexOf(Math.max(...means))];
}

async function keys(): Promise<string[]> {
  const out: string[] = [];
  for await (const blob of deps.blobs.list()) out.push(blob.key);
  return out.sort();
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "stash-media-"));
  deps = { blobs: new DiskBlobStore(root), config: loadConfig({ DATA_DIR: root }), logger: pino({ level: "silent" }) };
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe("images at upload", () => {
  it("stores a PNG screenshot as WebP that looks the same, with a 320 px WebP thumbnail", async () => {
    const png = await gameScreenshot(1920, 1080, 2);
    const upload = await store(png, "image/png", "png");
    const result = await processUploadedMedia(deps, upload, settings);
    expect(result.mimeType).toBe("image/webp");
    expect(result.filename).toBe(upload.filename.replace(/\.png$/, ".webp"));
    expect(result.storageKey).toBe(upload.storageKey.replace(/\.png$/, ".webp"));
    expect([result.width, result.height]).toEqual([1920, 1080]);
    expect(result.size).toBeLessThan(png.length / 2);
    const webp = await read(result.storageKey);
    expect(webp.length).toBe(result.size);
    expect(await ssim(png, webp)).toBeGreaterThan(0.95);
    expect(await deps.blobs.head(upload.storageKey)).toBeNull();

    expect(result.variants).toHaveLength(1);
    const [thumb] = result.variants;
    expect(thumb).toMatchObject({ variant: "w320_h0_inside_q80.webp", mime_type: "image/webp", width: 320, height: 180 });
    const meta = await sharp(await read(thumb.storage_key)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 320, 180]);
  });

  it("strips EXIF and GPS from an original, applying its orientation, when converting is off", async () => {
    const upload = await store(await photoWithGps(), "image/jpeg", "jpg");
    const result = await processUploadedMedia(deps, upload, { stripMetadata: true, convertToWebp: false });
    expect(result.mimeType).toBe("image/jpeg");
    expect(result.storageKey).toBe(upload.storageKey);
    const stored = await read(result.storageKey);
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([200, 400]);
    expect(stored.includes(Buffer.from("PhoneCo"))).toBe(false);
    expect(result.sha256).not.toBe(upload.sha256);
    const thumb = await sharp(await read(result.variants[0].storage_key)).metadata();
    expect(thumb.exif).toBeUndefined();
  });

  it("keeps the original untouched when the server turns both settings off, thumbnail still clean", async () => {
    const photo = await photoWithGps();
    const upload = await store(photo, "image/jpeg", "jpg");
    const result = await processUploadedMedia(deps, upload, { stripMetadata: false, convertToWebp: false });
    expect(result.sha256).toBe(upload.sha256);
    expect((await read(result.storageKey)).equals(photo)).toBe(true);
    expect((await sharp(await read(result.variants[0].storage_key)).metadata()).exif).toBeUndefined();
  });

  it("refuses a decompression bomb by its header in milliseconds", async () => {
    const upload = await store(pngBomb(), "image/png", "png");
    const started = performance.now();
    const error = await refusal(processUploadedMedia(deps, upload, settings));
    expect(performance.now() - started).toBeLessThan(500);
    expect(ERROR_STATUS[error.code]).toBe(413);
    expect(error.code).toBe("image_too_large");
    expect(error.message).toBe("Image of 100000×100000 pixels (10000 MP) exceeds the limit of 50 MP");
  });

  it("refuses an animation over the frame cap", async () => {
    const upload = await store(await gifWithFrames(501), "image/gif", "gif");
    const started = performance.now();
    const error = await refusal(processUploadedMedia(deps, upload, settings));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect([ERROR_STATUS[error.code], error.code]).toEqual([413, "too_many_frames"]);
    expect(error.message).toBe("Animated image has 501 frames; the limit is 500");
  });

  it("takes an animation under the cap and thumbnails its first frame", async () => {
    const result = await processUploadedMedia(deps, await store(await gifWithFrames(12), "image/gif", "gif"), settings);
    expect(result.mimeType).toBe("image/gif");
    expect(result.variants[0]).toMatchObject({ mime_type: "image/webp", width: 4, height: 4 });
  });

  it("refuses truncated and garbage images with 422 image_corrupt and leaves no derivative behind", async () => {
    const before = await keys();
    const full = await gameScreenshot(800, 600, 5, "jpeg");
    const truncated = await store(full.subarray(0, Math.floor(full.length * 0.6)), "image/jpeg", "jpg");
    const cut = await refusal(processUploadedMedia(deps, truncated, settings));
    expect([ERROR_STATUS[cut.code], cut.code]).toEqual([422, "image_corrupt"]);

    const garbage = await store(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(200)]), "image/png", "png");
    const bad = await refusal(processUploadedMedia(deps, garbage, settings));
    expect([ERROR_STATUS[bad.code], bad.code]).toEqual([422, "image_corrupt"]);
    expect(bad.message).toMatch(/^The PNG image is truncated or corrupt \(.+\)$/);
    expect(await keys()).toEqual([...before, garbage.storageKey, truncated.storageKey].sort());
  });

  it("never rasterises SVG", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    const result = await processUploadedMedia(deps, await store(svg, "image/svg+xml", "svg"), settings);
    expect(result.variants).toEqual([]);
    expect(result.width).toBeNull();
  });
});

describe("video and audio at upload", () => {
  it.each(["webm", "mp4"] as const)("records duration and size of a %s clip and makes a poster with a thumbnail", async (kind) => {
    const upload = await store(testClip(kind), `video/${kind}`, kind);
    const result = await processUploadedMedia(deps, upload, settings);
    expect([result.width, result.height]).toEqual([320, 240]);
    expect(result.durationMs).toBeGreaterThanOrEqual(1900);
    expect(result.durationMs).toBeLessThanOrEqual(2100);
    expect(result.variants.map((v) => [v.variant, v.width, v.height])).toEqual([
      ["poster.webp", 320, 240],
      ["poster-w320_h0_inside_q80.webp", 320, 240],
    ]);
    const poster = await sharp(await read(result.variants[0].storage_key)).metadata();
    expect(poster.format).toBe("webp");
  });

  it("takes the poster of a recording without a duration a second in, and of a shorter one its first frame", async () => {
    // Red for half a second, then blue: a poster a second in is blue, the first frame red.
    const result = await processUploadedMedia(deps, await store(liveRecording(["red", 0.5], ["blue", 2.5]), "video/webm", "webm"), settings);
    expect(result.durationMs).toBeGreaterThanOrEqual(2900);
    expect(await dominantChannel(await read(result.variants[0].storage_key))).toBe("blue");

    const short = await processUploadedMedia(deps, await store(liveRecording(["red", 0.5]), "video/webm", "webm"), settings);
    expect(short.durationMs).toBeLessThan(1000);
    expect(short.variants.map((v) => [v.variant, v.width, v.height])).toEqual([
      ["poster.webp", 320, 240],
      ["poster-w320_h0_inside_q80.webp", 320, 240],
    ]);
    expect(await dominantChannel(await read(short.variants[0].storage_key))).toBe("red");
    expect(short.thumbhash).toBeTruthy();
  });

  it("records the duration of audio and draws its waveform", async () => {
    const result = await processUploadedMedia(deps, await store(testTone(1.5), "audio/ogg", "ogg"), settings);
    expect(result.durationMs).toBeGreaterThanOrEqual(1400);
    expect(result.durationMs).toBeLessThanOrEqual(1600);
    expect(result.variants.map((v) => [v.variant, v.mime_type, v.width, v.height])).toEqual([["waveform.png", "image/png", 640, 120]]);
  });

  it("stores video as it is when ffmpeg is not installed", async () => {
    const missing = { ...deps, config: loadConfig({ DATA_DIR: root, FFMPEG_PATH: "/nonexistent/ffmpeg", FFPROBE_PATH: "/nonexistent/ffprobe" }) };
    const upload = await store(testClip("webm", 1), "video/webm", "webm");
    const result = await processUploadedMedia(missing, upload, settings);
    expect(result).toMatchObject({ storageKey: upload.storageKey, sha256: upload.sha256, width: null, height: null, durationMs: null, variants: [] });
  });

  it("stores a file ffmpeg cannot read as it is", async () => {
    const upload = await store(randomBytes(4096), "video/mp4", "mp4");
    const result = await processUploadedMedia(deps, upload, settings);
    expect(result).toMatchObject({ durationMs: null, variants: [] });
  });
});
