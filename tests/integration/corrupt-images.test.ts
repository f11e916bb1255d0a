/**
 * Images whose headers are fine but whose pixel data is not are refused before anything is published:
 * 422 image_corrupt with a message naming the format and the problem, and nothing stored or counted —
 * on a server that converts to WebP and on one that keeps originals. Valid images, odd EXIF included,
 * still go through.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { damagedPng, exifBlock, noiseBehindJpegHeaders, withApp1 } from "../helpers/corrupt-images.ts";
import { gameScreenshot, photoWithGps } from "../helpers/images.ts";
import { gifWithFrames } from "../helpers/media-fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, traceOf } from "../helpers/upload-fixtures.ts";

let server: TestServer;
let converting: SeededAccount;
let plain: SeededAccount;

test.beforeAll(async ({ server: started }) => {
  server = started;
  converting = await seedAccount(server.ctx, { convertToWebp: true });
  plain = await seedAccount(server.ctx);
});

async function upload(who: SeededAccount, data: Buffer, filename: string) {
  const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": who.key }, body: form([{ field: "file", data, filename }]) });
  return { res, body: await res.json() };
}

const screenshotJpeg = (seed: number) => gameScreenshot(640, 360, seed, "png").then((png) => sharp(png).jpeg({ quality: 80 }).toBuffer());

describe("corrupt images", () => {
  const cases: [what: string, make: () => Promise<Buffer>, filename: string, format: string, problem: RegExp][] = [
    // libjpeg warns "premature end of data segment" and decodes on: accepted before failOn "warning".
    ["a JPEG whose coded data is noise that runs short", async () => noiseBehindJpegHeaders(await screenshotJpeg(11), 0.7), "phone.jpg", "jpeg", /^Corrupt JPEG data: /],
    // Decodes to a picture of noise without a single warning from libjpeg.
    ["a JPEG whose coded data is noise as long as the original", async () => noiseBehindJpegHeaders(await screenshotJpeg(12), 1), "phone.jpg", "jpeg", /^Corrupt JPEG data: /],
    ["a JPEG whose coded data is noise longer than the original", async () => noiseBehindJpegHeaders(await screenshotJpeg(13), 1.3), "phone.jpg", "jpeg", /^Corrupt JPEG data: /],
    ["a progressive JPEG whose coded data is noise", async () => noiseBehindJpegHeaders(await sharp(await gameScreenshot(640, 360, 14, "png")).jpeg({ progressive: true }).toBuffer(), 1), "phone.jpg", "jpeg", /./],
    ["a truncated JPEG", async () => (await screenshotJpeg(15)).subarray(0, 20_000), "cut.jpg", "jpeg", /./],
    ["a JPEG missing only its last bytes", async () => (await screenshotJpeg(16)).subarray(0, -40), "cut.jpg", "jpeg", /./],
    ["a PNG with damaged pixel data", async () => damagedPng(await gameScreenshot(320, 200, 17, "png")), "shot.png", "png", /./],
    ["a truncated PNG", async () => (await gameScreenshot(320, 200, 18, "png")).subarray(0, 30_000), "shot.png", "png", /./],
    ["a truncated WebP", async () => (await sharp(await gameScreenshot(320, 200, 19, "png")).webp().toBuffer()).subarray(0, 2_000), "shot.webp", "webp", /./],
    ["an animated GIF cut inside its last frame", async () => { const gif = await gifWithFrames(8); return gif.subarray(0, gif.length - 6); }, "reaction.gif", "gif", /^the data ends inside frame 8$/],
    ["a GIF cut inside its only frame", async () => { const gif = await sharp(await gameScreenshot(100, 60, 20, "png")).gif().toBuffer(); return gif.subarray(0, Math.floor(gif.length * 0.9)); }, "still.gif", "gif", /./],
  ];

  it.each(cases)("refuses %s with 422 image_corrupt, storing and counting nothing", async (_what, make, filename, format, problem) => {
    const data = await make();
    for (const who of [converting, plain]) {
      const before = await traceOf(server, who);
      const { res, body } = await upload(who, data, filename);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(body).toMatchObject({ success: false, status: "error", code: "image_corrupt", format });
      expect(body.problem).toMatch(problem);
      expect(body.error).toBe(`The ${format === "webp" ? "WebP" : format.toUpperCase()} image is truncated or corrupt (${body.problem})`);
      expect(await traceOf(server, who)).toEqual(before);
    }
  });

  it("refuses a zero-byte file named .jpg with a clear 4xx, storing and counting nothing", async () => {
    const before = await traceOf(server, plain);
    const { res, body } = await upload(plain, Buffer.alloc(0), "empty.jpg");
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(body).toMatchObject({ success: false, status: "error" });
    expect(body.error).toMatch(/empty|no file|0 bytes/i);
    expect(await traceOf(server, plain)).toEqual(before);
  });
});

describe("valid images still go through", () => {
  const ffmpegJpeg = async (args: string[]) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-jpeg-"));
    try {
      fs.writeFileSync(path.join(dir, "in.png"), await gameScreenshot(480, 270, 21, "png"));
      execFileSync("ffmpeg", ["-v", "error", "-i", path.join(dir, "in.png"), ...args, path.join(dir, "out.jpg")]);
      return fs.readFileSync(path.join(dir, "out.jpg"));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const cases: [what: string, make: () => Promise<Buffer>, filename: string][] = [
    ["a phone photo with EXIF, GPS and an orientation", () => photoWithGps(), "IMG_0042.jpg"],
    ["a JPEG whose EXIF block is junk", async () => withApp1(await screenshotJpeg(22), Buffer.concat([Buffer.from("Exif\0\0", "latin1"), Buffer.from("not a TIFF header, just bytes")])), "odd.jpg"],
    ["a JPEG whose EXIF orientation is out of range", async () => withApp1(await screenshotJpeg(23), exifBlock([[0x0112, 3, 1, 9]])), "odd.jpg"],
    ["a JPEG whose EXIF points past its end", async () => withApp1(await screenshotJpeg(24), exifBlock([[0x010f, 2, 5000, 99_999], [0x0112, 3, 1, 1]])), "odd.jpg"],
    ["a JPEG with a second image appended (a phone's depth map)", async () => Buffer.concat([await screenshotJpeg(25), await sharp(await gameScreenshot(160, 90, 26, "png")).jpeg().toBuffer()]), "portrait.jpg"],
    ["a progressive JPEG", async () => sharp(await gameScreenshot(640, 360, 27, "png")).jpeg({ progressive: true }).toBuffer(), "prog.jpg"],
    ["a 4:4:4 JPEG with standard tables", async () => sharp(await gameScreenshot(640, 360, 28, "png")).jpeg({ chromaSubsampling: "4:4:4", optimiseCoding: false }).toBuffer(), "full.jpg"],
    ["a greyscale JPEG", async () => sharp(await gameScreenshot(640, 360, 29, "png")).greyscale().jpeg().toBuffer(), "grey.jpg"],
    ["a JPEG from ffmpeg (4:2:2)", () => ffmpegJpeg(["-pix_fmt", "yuvj422p"]), "cam.jpg"],
    ["a 1×1 JPEG", () => sharp({ create: { width: 1, height: 1, channels: 3, background: "#336699" } }).jpeg().toBuffer(), "pixel.jpg"],
    ["a PNG", () => gameScreenshot(320, 200, 30, "png"), "shot.png"],
    ["an animated GIF", () => gifWithFrames(8), "reaction.gif"],
  ];

  it.each(cases)("accepts %s", async (_what, make, filename) => {
    const data = await make();
    for (const who of [converting, plain]) {
      const { res, body } = await upload(who, data, filename);
      expect(res.status, JSON.stringify(body)).toBe(201);
      const served = await fetch(body.url.replace(/^https?:\/\/[^/]+/, server.url));
      expect(served.status).toBe(200);
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(meta.width).toBeGreaterThan(0);
    }
  });
});
