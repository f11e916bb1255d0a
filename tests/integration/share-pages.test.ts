import { describe, expect } from "vitest";
import { seedAccount } from "../helpers/api-seed.ts";
import { test } from "../helpers/fixtures.ts";
import { gameScreenshot } from "../helpers/images.ts";
import { testClip } from "../helpers/media-fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { form } from "../helpers/upload-fixtures.ts";
import type { FileId } from "../../app/lib/ids.ts";

let server: TestServer;
test.beforeAll(async ({ server: started }) => {
  server = started;
});

const meta = (html: string, property: string) => new RegExp(`<meta (?:property|name)="${property.replace(/[:]/g, "\\:")}" content="([^"]*)"`).exec(html)?.[1];

describe("share pages /v/{id}", () => {
  test("carry Open Graph and Twitter tags that make a pasted link show the picture or play the clip", async () => {
    const owner = await seedAccount(server.ctx);
    const upload = async (data: Buffer, filename: string, extra: Record<string, string> = {}) => {
      const parts = [...Object.entries(extra).map(([field, value]) => ({ field, data: value })), { field: "file", data, filename }];
      const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": owner.key }, body: form(parts) });
      expect(res.status).toBe(201);
      return (await res.json()) as { id: FileId; url: string };
    };

    const image = await upload(await gameScreenshot(800, 450, 2, "png"), "heist.png");
    const page = await server.request(`/v/${image.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(meta(html, "og:title")).toBe("heist.png");
    expect(meta(html, "og:image")).toBe(image.url);
    expect(meta(html, "og:image:width")).toBe("800");
    expect(meta(html, "og:image:height")).toBe("450");
    expect(meta(html, "twitter:card")).toBe("summary_large_image");
    expect(meta(html, "og:url")).toBe(`${server.ctx.config.appUrl}/v/${image.id}`);
    expect(html).toContain(`/report?url=${encodeURIComponent(image.url)}`);
    expect((await fetch(meta(html, "og:image")!)).headers.get("content-type")).toBe("image/png");

    const clip = await upload(testClip("webm", 2, "320x240"), "bodycam.webm");
    const video = await (await server.request(`/v/${clip.id}`)).text();
    expect(meta(video, "og:type")).toBe("video.other");
    expect(meta(video, "og:video")).toBe(clip.url);
    expect(meta(video, "og:video:type")).toBe("video/webm");
    expect(meta(video, "og:video:width")).toBe("320");
    const poster = await fetch(meta(video, "og:image")!.replace(/&amp;/g, "&"));
    expect(poster.status).toBe(200);
    expect(poster.headers.get("content-type")).toBe("image/webp");

    const hidden = await upload(await gameScreenshot(64, 64, 3, "png"), "private.png", { is_public: "false" });
    expect((await server.request(`/v/${hidden.id}`)).status).toBe(404);
    expect((await server.request("/v/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await server.request("/v/not-an-id")).status).toBe(404);
    await server.ctx.db.updateTable("files").set({ hidden_at: new Date() }).where("id", "=", image.id).execute();
    expect((await server.request(`/v/${image.id}`)).status).toBe(404);
  });
});
