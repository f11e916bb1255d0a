import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { gameScreenshot, photoWithGps } from "../helpers/images.ts";
import { gifWithFrames, pngBomb, testClip } from "../helpers/media-fixtures.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { form, traceOf } from "../helpers/upload-fixtures.ts";

let server: TestServer;
let converting: SeededAccount;
let plain: SeededAccount;

async function upload(who: SeededAccount, data: Buffer, filename: string, on: TestServer = server) {
  const res = await on.request("/api/upload", {
    method: "POST",
    headers: { "x-api-key": who.key },
    body: form([{ field: "file", data, filename }]),
  });
  return { res, body: await res.json() };
}

const local = (url: string, on: TestServer = server) => url.replace(/^https?:\/\/[^/]+/, on.url);

test.beforeAll(async ({ server: started }) => {
  server = started;
  converting = await seedAccount(server.ctx, { convertToWebp: true });
  plain = await seedAccount(server.ctx);
});

describe("images uploaded through the script API", () => {
  it("stores a PNG screenshot as WebP with its size and a ready thumbnail", async () => {
    const { res, body } = await upload(converting, await gameScreenshot(1280, 720, 4), "screenshot.png");
    expect(res.status).toBe(201);
    expect(body).toMatchObject({ mime_type: "image/webp", width: 1280, height: 720, original_filename: "screenshot.png" });
    expect(body.filename).toMatch(/\.webp$/);
    const variants = await server.ctx.db.selectFrom("file_variants").selectAll().where("file_id", "=", body.id).execute();
    expect(variants.map((v) => [v.variant, v.width, v.height])).toEqual([["w320_h0_inside_q80.webp", 320, 180]]);

    const thumb = await server.request(`${new URL(local(body.url)).pathname}?w=320&format=webp`);
    expect(thumb.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([meta.format, meta.width]).toEqual(["webp", 320]);
    expect(await server.ctx.db.selectFrom("file_variants").select("variant").where("file_id", "=", body.id).execute()).toHaveLength(1);

    const info = await (await server.request(`/api/files/${body.id}`, { headers: { "x-api-key": converting.key } })).json();
    expect(info.thumbnail_url).toBe(`${body.url}?w=320&format=webp`);
  });

  it("strips EXIF and GPS from an uploaded photo, orientation applied", async () => {
    const { res, body } = await upload(plain, await photoWithGps(), "IMG_0042.jpg");
    expect(res.status).toBe(201);
    expect([body.mime_type, body.width, body.height]).toEqual(["image/jpeg", 200, 400]);
    const stored = Buffer.from(await (await fetch(local(body.url))).arrayBuffer());
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([200, 400]);
    expect(stored.includes(Buffer.from("PhoneCo"))).toBe(false);
  });

  it.each([
    ["a pixel bomb", () => pngBomb(), "bomb.png", 413, "image_too_large"],
    ["a frame bomb", () => gifWithFrames(501), "frames.gif", 413, "too_many_frames"],
    ["a truncated image", async () => (await gameScreenshot(640, 360, 6, "jpeg")).subarray(0, 9000), "cut.jpg", 422, "image_corrupt"],
  ])("refuses %s quickly and leaves no trace", async (_name, make, filename, status, code) => {
    const who = await seedAccount(server.ctx);
    const data = await make();
    const started = performance.now();
    const { res, body } = await upload(who, data, filename);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(res.status).toBe(status);
    expect(body).toMatchObject({ success: false, status: "error", code });
    expect(await traceOf(server, who)).toMatchObject({ rows: 0, blobs: [], usedBytes: 0, uploads: 0 });
  });
});

describe("video uploads", () => {
  it("records duration and size and serves the poster as the gallery tile", async () => {
    const { res, body } = await upload(plain, testClip("webm"), "bodycam.webm");
    expect(res.status).toBe(201);
    expect(body).toMatchObject({ mime_type: "video/webm", width: 320, height: 240 });
    expect(body.duration_ms).toBeGreaterThanOrEqual(1900);
    const tile = await server.request(`${new URL(local(body.url)).pathname}?w=160&format=webp`);
    expect(tile.status).toBe(200);
    const meta = await sharp(Buffer.from(await tile.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 160, 120]);
  });

  it("still takes videos when ffmpeg is not installed", async () => {
    const bare = await startTestServer({ FFMPEG_PATH: "/nonexistent/ffmpeg", FFPROBE_PATH: "/nonexistent/ffprobe" });
    try {
      const who = await seedAccount(bare.ctx);
      const clip = testClip("webm", 1);
      const { res, body } = await upload(who, clip, "clip.webm", bare);
      expect(res.status).toBe(201);
      expect(body).toMatchObject({ mime_type: "video/webm", duration_ms: null, width: null, height: null, file_size: clip.length });
      const served = await fetch(local(body.url, bare));
      expect(Buffer.from(await served.arrayBuffer()).equals(clip)).toBe(true);
      const tile = await bare.request(`${new URL(local(body.url, bare)).pathname}?w=160`);
      expect(tile.status).toBe(415);
    } finally {
      await bare.close();
    }
  });
});
