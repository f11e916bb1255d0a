/**
 * Replays of what real FiveM scripts and tools send, read back the way each of them reads the
 * answer. A server owner switches by changing a URL and a key, so these must keep passing.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { expectApiResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { jpeg, png } from "../helpers/upload-fixtures.ts";

let server: TestServer;
let account: SeededAccount;

beforeAll(async () => {
  server = await startTestServer();
  account = await seedAccount(server.ctx);
});

afterAll(async () => {
  await server?.close();
});

/** The bytes a path of the answer points at, fetched from this server. */
async function fetchBack(url: string): Promise<Buffer> {
  const res = await server.request(new URL(url).pathname);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** screenshot-basic's dataURItoBlob + FormData + fetch from the game UI, answer handed to Lua as text. */
async function screenshotBasic(url: string, field: string, encoding: "jpg" | "png" | "webp", image: Buffer, headers: Record<string, string> = {}) {
  const mime = encoding === "jpg" ? "image/jpeg" : `image/${encoding}`;
  const formData = new FormData();
  formData.append(field, new Blob([new Uint8Array(image)], { type: mime }), `screenshot.${encoding}`);
  const res = await server.request(url, { method: "POST", mode: "cors", headers: { Origin: "https://cfx-nui-screenshot-basic", ...headers }, body: formData });
  return { res, text: await res.clone().text() };
}

/** Lua's PerformHttpRequest: a string body, headers table, answer as text. */
async function performHttpRequest(url: string, method: string, body: string, headers: Record<string, string>) {
  const res = await server.request(url, { method, body, headers });
  return { res, text: await res.clone().text() };
}

/** LB Phone's `success.path` / NPWD's `returnedDataIndexes`: walk keys and indexes into the JSON. */
function walk(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((v, key) => (v == null ? undefined : (v as Record<string | number, unknown>)[key]), value);
}

describe("screenshot-basic requestScreenshotUpload", () => {
  it("3-argument form (url, field, cb): key in the URL, caller-chosen field name", async () => {
    const image = await jpeg(64, 36);
    const { res, text } = await screenshotBasic(`/api/upload?apiKey=${account.key}`, "screenshot", "jpg", image);
    await expectApiResponse(res, "post", "/api/upload");
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const resp = JSON.parse(text);
    expect(resp.error).toBe(false);
    expect((await fetchBack(resp.url)).equals(image)).toBe(true);
  });

  it("4-argument form (url, field, options, cb): headers from options, png encoding", async () => {
    const image = await png(64, 36);
    const { res, text } = await screenshotBasic("/api/upload", "files[]", "png", image, { Authorization: `Bearer ${account.key}` });
    await expectApiResponse(res, "post", "/api/upload");
    const resp = JSON.parse(text);
    expect(resp.files[0].url).toBe(resp.url);
    expect(resp.attachments[0].url).toBe(resp.url);
    expect((await fetchBack(resp.data.url)).equals(image)).toBe(true);
  });
});

describe("LB Phone", () => {
  it("Custom method: multipart field from config, headers, success.path = url", async () => {
    const config = { url: "/api/upload", field: "file", headers: { "x-api-key": account.key }, success: { path: "url" }, error: { path: "success", value: false } };
    const formData = new FormData();
    formData.append(config.field, new Blob([new Uint8Array(await jpeg())], { type: "image/jpeg" }), "photo.jpg");
    const res = await server.request(config.url, { method: "POST", headers: { Origin: "https://cfx-nui-lb-phone", ...config.headers }, body: formData });
    const body = await expectApiResponse(res, "post", "/api/upload");
    expect(walk(body, [config.error.path])).not.toBe(config.error.value);
    expect(walk(body, config.success.path.split("."))).toMatch(/\/f\//);
  });

  it("presigned method: the server asks for a URL with its key, the phone posts to it with none", async () => {
    const presign = await server.request("/api/upload/presign?fileType=image", { headers: { Authorization: account.key } });
    const grant = await expectApiResponse(presign, "get", "/api/upload/presign");
    const presignedUrl = walk(grant, ["data", "presignedUrl"]) as string;
    const formData = new FormData();
    formData.append("file", new Blob([new Uint8Array(await png())], { type: "image/png" }), "photo.png");
    const res = await server.request(new URL(presignedUrl).pathname, { method: "POST", headers: { Origin: "https://cfx-nui-lb-phone" }, body: formData });
    const body = await expectApiResponse(res, "post", "/api/upload/presigned/{token}");
    expect(res.status).toBe(201);
    expect(walk(body, ["data", "url"])).toBe(body.url);
  });
});

describe("NPWD", () => {
  it("images config: field = type, Authorization with prefix, returnedDataIndexes", async () => {
    const images = {
      url: "/api/upload",
      type: "image",
      imageEncoding: "webp" as const,
      authorizationHeader: "Authorization",
      authorizationPrefix: "Bearer",
      returnedDataIndexes: ["url"],
    };
    const webp = await sharp({ create: { width: 32, height: 18, channels: 3, background: "#336699" } }).webp().toBuffer();
    const { res, text } = await screenshotBasic(images.url, images.type, images.imageEncoding, webp, {
      [images.authorizationHeader]: `${images.authorizationPrefix} ${account.key}`,
    });
    await expectApiResponse(res, "post", "/api/upload");
    const url = walk(JSON.parse(text), images.returnedDataIndexes) as string;
    expect((await fetchBack(url)).equals(webp)).toBe(true);
  });
});

describe("qb-phone (Discord-style)", () => {
  it("screenshot-basic to a Discord webhook URL with files[], reading attachments[1].proxy_url", async () => {
    const webhook = `/api/webhooks/${account.serverId}/${account.webhookSecret}`;
    const { res, text } = await screenshotBasic(webhook, "files[]", "jpg", await jpeg());
    await expectApiResponse(res, "post", "/api/webhooks/{server_id}/{secret}");
    const image = JSON.parse(text);
    expect(image.attachments[0].proxy_url).toMatch(/\/f\/.+\.jpg$/);
  });
});

describe("Lua PerformHttpRequest bodies", () => {
  it("Fivemanage-style JSON base64 with Authorization, reading url", async () => {
    const image = await png();
    const { res, text } = await performHttpRequest(
      "/api/upload",
      "POST",
      JSON.stringify({ base64: `data:image/png;base64,${image.toString("base64")}`, filename: "mugshot.png", metadata: { citizenid: "ABC123" } }),
      { "Content-Type": "application/json", Authorization: account.key },
    );
    await expectApiResponse(res, "post", "/api/upload");
    const decoded = JSON.parse(text);
    expect(decoded.metadata).toEqual({ citizenid: "ABC123" });
    expect((await fetchBack(decoded.url)).equals(image)).toBe(true);
  });

  it("Fivemerr-style JSON { data } to /api/upload/base64, reading url", async () => {
    const image = await jpeg();
    const { res, text } = await performHttpRequest("/api/upload/base64", "POST", JSON.stringify({ data: image.toString("base64") }), {
      "Content-Type": "application/json",
      Authorization: account.key,
    });
    await expectApiResponse(res, "post", "/api/upload/base64");
    expect((await fetchBack(JSON.parse(text).url)).equals(image)).toBe(true);
  });

  it("screencapture serverCapture(..., 'base64'): the raw data URI as the body", async () => {
    const image = await png(20, 10);
    const { res, text } = await performHttpRequest("/api/upload?category=screencapture", "POST", `data:image/png;base64,${image.toString("base64")}`, {
      "Content-Type": "text/plain",
      "x-api-key": account.key,
    });
    await expectApiResponse(res, "post", "/api/upload");
    const decoded = JSON.parse(text);
    expect(decoded.category).toBe("screencapture");
    expect((await fetchBack(decoded.url)).equals(image)).toBe(true);
  });

  it("Discord log scripts posting embeds as JSON get a message back", async () => {
    const { res, text } = await performHttpRequest(
      `/api/webhooks/${account.serverId}/${account.webhookSecret}?wait=true`,
      "POST",
      JSON.stringify({ username: "Logs", embeds: [{ title: "Player joined", color: 65280 }] }),
      { "Content-Type": "application/json" },
    );
    await expectApiResponse(res, "post", "/api/webhooks/{server_id}/{secret}");
    expect(res.status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ embeds: [{ title: "Player joined" }], attachments: [] });
  });

  it("Discord webhook scripts sending payload_json and file", async () => {
    const formData = new FormData();
    formData.append("payload_json", JSON.stringify({ content: "Bodycam" }));
    formData.append("file", new Blob([new Uint8Array(await jpeg())], { type: "image/jpeg" }), "bodycam.jpg");
    const res = await server.request(`/api/webhooks/${account.serverId}/${account.webhookSecret}`, { method: "POST", body: formData });
    const message = await expectApiResponse(res, "post", "/api/webhooks/{server_id}/{secret}");
    expect(message.content).toBe("Bodycam");
    expect(message.attachments[0].url).toMatch(/\/f\//);
  });
});

describe("ShareX custom uploader", () => {
  const sxcu = () => ({
    RequestMethod: "POST",
    RequestURL: "/api/upload",
    Headers: { "x-api-key": account.key },
    Body: "MultipartFormData",
    FileFormName: "file",
    URL: "{json:url}",
    ErrorMessage: "{json:error}",
  });

  it("uploads with FileFormName and reads {json:url}", async () => {
    const config = sxcu();
    const formData = new FormData();
    formData.append(config.FileFormName, new Blob([new Uint8Array(await png())], { type: "image/png" }), "Screenshot_2026-11-22.png");
    const res = await server.request(config.RequestURL, { method: config.RequestMethod, headers: { ...config.Headers, "User-Agent": "ShareX/16.1.0" }, body: formData });
    const body = await expectApiResponse(res, "post", "/api/upload");
    expect(body.url).toMatch(/^http/);
    expect(body.original_filename).toBe("Screenshot_2026-11-22.png");
  });

  it("shows {json:error} as a readable message on failure", async () => {
    const config = sxcu();
    const formData = new FormData();
    formData.append(config.FileFormName, new Blob(["MZ\x90\x00 not an image"], { type: "image/png" }), "evil.png");
    const res = await server.request(config.RequestURL, { method: "POST", headers: { "x-api-key": "sk_wrong" }, body: formData });
    const body = await expectApiResponse(res, "post", "/api/upload");
    expect(typeof body.error).toBe("string");
    expect(body.error).toBe("Invalid API key");
  });
});

describe("CORS from a game UI", () => {
  it("answers the preflight of https://cfx-nui-<resource> and the request that follows", async () => {
    const preflight = await server.request("/api/upload", {
      method: "OPTIONS",
      headers: { Origin: "https://cfx-nui-npwd", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,x-api-key" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");

    const search = await server.request("/api/search", { headers: { Origin: "https://cfx-nui-npwd", Authorization: `Bearer ${account.key}` } });
    await expectApiResponse(search, "get", "/api/search");
    expect(search.headers.get("access-control-allow-origin")).toBe("*");
  });
});
