import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import type { FileRecord } from "../../db/schema.ts";
import { filePath, seedFile, seedOwner, type SeedOwner } from "../helpers/files.ts";
import { gameScreenshot, photoWithGps, ssim } from "../helpers/images.ts";
import type { TestServer } from "../helpers/server.ts";

let server: TestServer;
let owner: SeedOwner;
let screenshot: FileRecord;
let photo: FileRecord;

async function image(res: Response) {
  const body = Buffer.from(await res.arrayBuffer());
  return { body, meta: await sharp(body).metadata() };
}

test.beforeAll(async ({ server: started }) => {
  server = started;
  owner = await seedOwner(server);
  screenshot = await seedFile(server, owner, { bytes: await gameScreenshot(1920, 1080), mimeType: "image/png", extension: "png", width: 1920, height: 1080 });
  photo = await seedFile(server, owner, { bytes: await photoWithGps(), mimeType: "image/jpeg", extension: "jpg" });
});

describe("image transforms on /f/", () => {
  it("resizes by width keeping the aspect ratio and the original format", async () => {
    const res = await server.request(`${filePath(screenshot)}?w=640`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const { meta } = await image(res);
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 640, 360]);
  });

  it("makes a 640 px WebP of a 1080p screenshot that stays close to a lossless resize", async () => {
    const res = await server.request(`${filePath(screenshot)}?w=640&format=webp`);
    expect(res.status).toBe(200);
    const { body, meta } = await image(res);
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 640, 360]);
    const original = await (await server.request(filePath(screenshot))).arrayBuffer();
    const lossless = await sharp(Buffer.from(original)).resize({ width: 640 }).png().toBuffer();
    expect(await ssim(lossless, body)).toBeGreaterThan(0.9);
    const again = await server.request(`${filePath(screenshot)}?w=640&format=webp`);
    expect(Buffer.from(await again.arrayBuffer()).equals(body)).toBe(true);
  });

  it.each([
    ["cover", "webp", 300, 300, "webp"],
    ["contain", "png", 300, 300, "png"],
    ["inside", "jpeg", 300, 169, "jpeg"],
    ["inside", "avif", 300, 169, "heif"],
  ])("fit=%s format=%s gives %ix%i", async (fit, format, width, height, sharpFormat) => {
    const res = await server.request(`${filePath(screenshot)}?w=300&h=300&fit=${fit}&format=${format}&q=70`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(`image/${format}`);
    const { meta } = await image(res);
    expect([meta.format, meta.width, meta.height]).toEqual([sharpFormat, width, height]);
  });

  it("picks the format from Accept for format=auto and says it varies; AVIF once the background encode made it, WebP until then", async () => {
    // Past 1,600 px the AVIF encode costs seconds of CPU: such a source is answered WebP and never queued.
    for (let i = 0; i < 3; i++) {
      const big = await server.request(`${filePath(screenshot)}?w=200&format=auto`, { headers: { Accept: "image/avif,image/webp,*/*" } });
      expect(big.headers.get("content-type")).toBe("image/webp");
      await big.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const queued = await server.ctx.db.selectFrom("file_variants").select("variant").where("file_id", "=", screenshot.id).where("variant", "like", "w200_%.avif").execute();
    expect(queued).toEqual([]);
    const small = await seedFile(server, owner, { bytes: await gameScreenshot(1280, 720, 5), mimeType: "image/png", extension: "png", width: 1280, height: 720 });
    const first = await server.request(`${filePath(small)}?w=200&format=auto`, { headers: { Accept: "image/avif,image/webp,*/*" } });
    expect(first.headers.get("content-type")).toBe("image/webp");
    expect(first.headers.get("vary")).toBe("Accept");
    // A stand-in: cached briefly, so the client asks again for the AVIF.
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    await first.arrayBuffer();
    await expect.poll(async () => {
      const res = await server.request(`${filePath(small)}?w=200&format=auto`, { headers: { Accept: "image/avif,image/webp,*/*" } });
      await res.arrayBuffer();
      return res.headers.get("content-type");
    }, { timeout: 20_000 }).toBe("image/avif");
    const avif = await server.request(`${filePath(small)}?w=200&format=auto`, { headers: { Accept: "image/avif,image/webp,*/*" } });
    expect(avif.headers.get("vary")).toBe("Accept");
    expect(avif.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await image(avif)).meta.format).toBe("heif");
    const webp = await server.request(`${filePath(screenshot)}?w=200&format=auto`, { headers: { Accept: "image/webp,*/*" } });
    expect(webp.headers.get("content-type")).toBe("image/webp");
    await webp.arrayBuffer();
    const plain = await server.request(`${filePath(screenshot)}?w=200&format=auto`, { headers: { Accept: "*/*" } });
    expect(plain.headers.get("content-type")).toBe("image/png");
    await plain.arrayBuffer();
  });

  it("gives variants their own validators and answers 304 for them", async () => {
    const res = await server.request(`${filePath(screenshot)}?w=120&format=webp`);
    const etag = res.headers.get("etag");
    expect(etag).toMatch(new RegExp(`^"${screenshot.sha256}-w120_h0_inside_q80\\.webp"$`));
    await res.arrayBuffer();
    const again = await server.request(`${filePath(screenshot)}?w=120&format=webp`, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    const range = await server.request(`${filePath(screenshot)}?w=120&format=webp`, { headers: { Range: "bytes=0-3" } });
    expect(range.status).toBe(206);
    expect(await range.text()).toBe("RIFF");
  });

  it("applies the orientation and strips EXIF and GPS from derivatives", async () => {
    const original = await sharp(await photoWithGps()).metadata();
    expect(original.exif).toBeDefined();
    expect(original.orientation).toBe(6);
    const res = await server.request(`${filePath(photo)}?w=100&format=jpeg`);
    const { body, meta } = await image(res);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(body.includes(Buffer.from("PhoneCo"))).toBe(false);
    // 400×200 stored sideways with orientation 6 displays as 200×400.
    expect([meta.width, meta.height]).toEqual([100, 200]);
  });

  it.each([
    ["w=0", "w must be"],
    ["w=4097", "w must be"],
    ["h=abc", "h must be"],
    ["w=10&q=10", "q must be"],
    ["w=10&q=101", "q must be"],
    ["w=10&fit=fill", "fit must be"],
    ["format=gif", "format must be"],
  ])("refuses %s with 400", async (query, message) => {
    const res = await server.request(`${filePath(screenshot)}?${query}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, status: "error", code: "invalid_transform" });
    expect(body.error).toContain(message);
  });

  it("refuses transforms of files that are not images", async () => {
    const text = await seedFile(server, owner, { bytes: Buffer.from("hello"), mimeType: "text/plain", extension: "txt" });
    const res = await server.request(`${filePath(text)}?w=100`);
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: "not_an_image" });
    const plain = await server.request(`${filePath(text)}?v=2`);
    expect(await plain.text()).toBe("hello");
  });

  it("makes a variant once under 20 concurrent first requests", async () => {
    const fresh = await seedFile(server, owner, { bytes: await gameScreenshot(1280, 720, 7), mimeType: "image/png", extension: "png" });
    const blobs = server.ctx.blobs;
    const originalPut = blobs.put.bind(blobs);
    const variantWrites: string[] = [];
    blobs.put = (key, body, options) => {
      if (key.includes(".variants/")) variantWrites.push(key);
      return originalPut(key, body, options);
    };
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => server.request(`${filePath(fresh)}?w=333&format=webp`).then(async (res) => ({ status: res.status, body: Buffer.from(await res.arrayBuffer()) }))),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(new Set(answers.map((a) => a.body.toString("base64"))).size).toBe(1);
    } finally {
      blobs.put = originalPut;
    }
    expect(variantWrites).toHaveLength(1);
    const rows = await server.ctx.db.selectFrom("file_variants").selectAll().where("file_id", "=", fresh.id).execute();
    // 333 px snaps up to the next of the allowed sizes (docs/decisions/065).
    expect(rows.map((r) => [r.variant, r.width, r.height])).toEqual([["w400_h0_inside_q80.webp", 400, 225]]);
  });

  it("refuses a corrupt image's transform with 422 instead of failing", async () => {
    const full = await gameScreenshot(640, 360, 3);
    const truncated = await seedFile(server, owner, { bytes: full.subarray(0, Math.floor(full.length / 2)), mimeType: "image/png", extension: "png" });
    const res = await server.request(`${filePath(truncated)}?w=100`);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: "image_corrupt" });
  });
});
