import { describe, expect } from "vitest";
import { thumbHashToApproximateAspectRatio, thumbHashToRGBA } from "thumbhash";
import { seedAccount } from "../helpers/api-seed.ts";
import { test } from "../helpers/fixtures.ts";
import { gameScreenshot } from "../helpers/images.ts";
import { testAudio, testClip } from "../helpers/media-fixtures.ts";
import sharp from "sharp";
import { createSessionCookie } from "../helpers/auth.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, pdf } from "../helpers/upload-fixtures.ts";
import type { FileId } from "../../app/lib/ids.ts";

let server: TestServer;
test.beforeAll(async ({ server: started }) => {
  server = started;
});

type FileAnswer = { id: FileId; thumbhash: string | null; width: number | null; height: number | null };

describe("ThumbHash placeholders", () => {
  test("every image and video poster gets one in the upload answer, GET /api/files/{id} and search; other files get null", async () => {
    const owner = await seedAccount(server.ctx);
    const upload = async (data: Buffer, filename: string) => {
      const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": owner.key }, body: form([{ field: "file", data, filename }]) });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()) as FileAnswer;
    };

    const image = await upload(await gameScreenshot(1280, 720, 4, "png"), "wide.png");
    expect(image).toMatchObject({ width: 1280, height: 720 });
    const hash = Buffer.from(image.thumbhash!, "base64");
    expect(hash.length).toBeGreaterThan(5);
    expect(hash.length).toBeLessThan(40);
    // The placeholder keeps the picture's shape and decodes to real pixels.
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(16 / 9, 0);
    const rgba = thumbHashToRGBA(hash);
    expect(rgba.w * rgba.h * 4).toBe(rgba.rgba.length);

    const video = await upload(testClip("webm", 2, "320x240"), "bodycam.webm");
    expect(video.thumbhash).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(thumbHashToApproximateAspectRatio(Buffer.from(video.thumbhash!, "base64"))).toBeCloseTo(4 / 3, 0);

    const document = await upload(pdf(2000), "report.pdf");
    expect(document.thumbhash).toBeNull();

    const byId = (await (await server.request(`/api/files/${image.id}`, { headers: { "x-api-key": owner.key } })).json()) as { file?: FileAnswer } & FileAnswer;
    expect((byId.file ?? byId).thumbhash).toBe(image.thumbhash);
    const search = (await (await server.request("/api/search?q=wide", { headers: { "x-api-key": owner.key } })).json()) as { files: FileAnswer[] };
    expect(search.files.find((f) => f.id === image.id)).toMatchObject({ thumbhash: image.thumbhash, width: 1280, height: 720 });
  });

  test("a video gets a 3 s animated preview for gallery hover and an audio file a waveform for its card", async () => {
    const owner = await seedAccount(server.ctx, { server: { allowedFileTypes: ["webm", "ogg", "mp4"] } });
    const session = await createSessionCookie(server.ctx, owner.userId);
    const upload = async (data: Buffer, filename: string) => {
      const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": owner.key }, body: form([{ field: "file", data, filename }]) });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()) as FileAnswer & { duration_ms: number | null };
    };
    const media = (id: string, query: string) => server.request(`/api/media/${id}?${query}`, { headers: { Cookie: session.cookie } });

    const video = await upload(testClip("webm", 5, "640x360"), "dashcam.webm");
    // Made just after the upload answered, off the request path.
    await expect.poll(async () => (await media(video.id, "preview=1")).status, { timeout: 15_000 }).toBe(200);
    const preview = await media(video.id, "preview=1");
    expect(preview.headers.get("content-type")).toBe("image/webp");
    const frames = await sharp(Buffer.from(await preview.arrayBuffer()), { animated: true }).metadata();
    expect(frames.pages).toBeGreaterThan(10);
    expect(frames.width).toBe(320);
    const row = await server.ctx.db.selectFrom("file_variants").select(["width", "height"]).where("file_id", "=", video.id).where("variant", "=", "preview.webp").executeTakeFirstOrThrow();
    expect(row).toEqual({ width: 320, height: 180 });

    const voice = await upload(testAudio("ogg", 2), "voice-note.ogg");
    expect(voice.duration_ms).toBeGreaterThan(1500);
    const wave = await media(voice.id, "thumb=1");
    expect(wave.status).toBe(200);
    expect(wave.headers.get("content-type")).toBe("image/png");
    const picture = await sharp(Buffer.from(await wave.arrayBuffer())).metadata();
    expect([picture.width, picture.height]).toEqual([640, 120]);
    expect((await media(voice.id, "preview=1")).status).toBe(404);
  });
});
