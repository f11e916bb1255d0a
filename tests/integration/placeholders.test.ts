import { describe, expect } from "vitest";
import { thumbHashToApproximateAspectRatio, thumbHashToRGBA } from "thumbhash";
import { seedAccount } from "../helpers/api-seed.ts";
import { test } from "../helpers/fixtures.ts";
import { gameScreenshot } from "../helpers/images.ts";
import { testClip } from "../helpers/media-fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, pdf } from "../helpers/upload-fixtures.ts";

let server: TestServer;
test.beforeAll(async ({ server: started }) => {
  server = started;
});

type FileAnswer = { id: string; thumbhash: string | null; width: number | null; height: number | null };

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
});
