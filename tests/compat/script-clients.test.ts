/**
 * Replays of what real FiveM scripts and tools send, read back the way each of them reads the
 * answer, against a server made exactly as a new user makes one: with the CLI's defaults, and with
 * the portal form's defaults in Chromium. Nothing is widened first. Every request of a run goes
 * over ONE keep-alive connection, as a game server's HTTP client reuses its connection: an answer
 * that leaves the connection broken fails the next replay. Request shapes come from the clients'
 * own source (screenshot-basic's ui/src/main.ts, fmsdk's features/images, LB Phone's upload
 * config and lb-presigned, NPWD's config, Fivemerr's docs, screencapture, ShareX's .sxcu).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionCookie, signUpAndSignIn } from "../helpers/auth.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { keepAliveClient, type KeepAliveClient } from "../helpers/keep-alive-client.ts";
import { recordInChromium, type RecordedClip } from "../helpers/media-recorder.ts";
import { testTone } from "../helpers/media-fixtures.ts";
import { expectApiResponse } from "../helpers/openapi.ts";
import { freePort, startTestServer, type TestServer } from "../helpers/server.ts";
import { createTestDatabase } from "../helpers/test-db.ts";
import { jpeg, png } from "../helpers/upload-fixtures.ts";

const run = promisify(execFile);

interface Setup {
  server: TestServer;
  /** The key as the owner copied it. */
  key: string;
  /** The Discord-compatible webhook URL as the owner found it. */
  webhookUrl: string;
  /** A signed-in session of the owner, for the gallery. */
  cookie: string;
}

let browser: Browser;
let videoClip: RecordedClip;
let voiceNote: RecordedClip;

beforeAll(async () => {
  browser = await launchBrowser();
  // LB Phone's camera and voice notes: Chromium's MediaRecorder, VP9/Opus WebM without a duration.
  videoClip = await recordInChromium(browser, { kind: "video", seconds: 2, mimeType: "video/webm;codecs=vp9,opus" });
  voiceNote = await recordInChromium(browser, { kind: "audio", seconds: 2, mimeType: "audio/webm;codecs=opus" });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** `npm run cli -- …` as an operator runs it, against the data directory `npm start` will serve. */
async function cli(env: Record<string, string>, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "cli/index.ts", ...args], {
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
  });
  return stdout.trim();
}

/** README's quick start: create the account, server and key with the CLI, then start Stash on that data. */
async function setUpWithCli(): Promise<Setup> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-compat-cli-"));
  const database = await createTestDatabase();
  const port = await freePort();
  const env = { DATA_DIR: dataDir, DATABASE_URL: database.url ?? "", APP_URL: `http://127.0.0.1:${port}` };
  await cli(env, "user:create", "--email", "owner@example.com", "--password", "a-long-password", "--verified");
  const created = JSON.parse(await cli(env, "server:create", "--owner", "owner@example.com", "--name", "Los Santos RP", "--json"));
  const key = await cli(env, "key:create", "--server", created.id, "--name", "phone script");
  const server = await startTestServer({}, { prepared: { dataDir, database, port } });
  const owner = await server.ctx.db.selectFrom("users").select("id").where("email", "=", "owner@example.com").executeTakeFirstOrThrow();
  const { cookie } = await createSessionCookie(server.ctx, owner.id);
  return { server, key, webhookUrl: created.webhook_url, cookie };
}

/** A new owner in the portal: Add New Server with only a name typed, then a key and the webhook URL from the pages. */
async function setUpWithPortal(): Promise<Setup> {
  const server = await startTestServer();
  const owner = await signUpAndSignIn(server);
  const context = await browser.newContext();
  await context.addCookies([{ name: owner.cookie.split("=")[0]!, value: owner.token, url: server.url }]);
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}/servers`);
    await page.getByRole("link", { name: "Add New Server" }).click();
    await page.getByLabel("Server Name").fill("Los Santos RP");
    await page.getByRole("button", { name: "Create Server" }).click();
    await page.getByRole("link", { name: "Manage Los Santos RP" }).click();
    await page.waitForURL(/\/servers\/[0-9a-z]+$/);
    const webhookUrl = await page.locator("#webhook-url").inputValue();
    await page.getByRole("link", { name: "Manage API keys" }).click();
    await page.getByLabel("Key Name").fill("phone script");
    await page.getByRole("button", { name: "Generate API Key" }).click();
    const key = (await page.getByTestId("full-key").textContent())!.trim();
    return { server, key, webhookUrl, cookie: owner.cookie };
  } finally {
    await context.close();
  }
}

/** LB Phone's `success.path` / NPWD's `returnedDataIndexes`: walk keys and indexes into the JSON. */
function walk(value: unknown, keys: (string | number)[]): unknown {
  return keys.reduce<unknown>((v, key) => (v == null ? undefined : (v as Record<string | number, unknown>)[key]), value);
}

function blob(bytes: Buffer, type: string): Blob {
  return new Blob([new Uint8Array(bytes)], { type });
}

describe.each([
  ["the CLI's defaults", setUpWithCli],
  ["the portal form's defaults", setUpWithPortal],
])("every known client against a server made with %s, over one keep-alive connection", (_how, setUp) => {
  let setup: Setup;
  let client: KeepAliveClient;
  /** Every stored file by category, to find again through the gallery's filters. */
  const uploaded: { id: string; category: string; filename: string }[] = [];

  beforeAll(async () => {
    setup = await setUp();
    client = keepAliveClient(setup.server.url);
  }, 180_000);

  afterAll(async () => {
    client?.close();
    await setup?.server.close();
  });

  /** The bytes a URL of an answer points at, fetched as a game UI's <img>/<video> would. */
  async function fetchBack(url: string, headers: Record<string, string> = {}): Promise<{ bytes: Buffer; res: Response }> {
    expect(new URL(url).origin).toBe(setup.server.url);
    const res = await client.request(url, { headers });
    expect([200, 206]).toContain(res.status);
    return { bytes: Buffer.from(await res.arrayBuffer()), res };
  }

  async function expectSameImage(url: string, sent: Buffer) {
    const { bytes } = await fetchBack(url);
    const [a, b] = await Promise.all([sharp(bytes).metadata(), sharp(sent).metadata()]);
    expect([a.width, a.height]).toEqual([b.width, b.height]);
  }

  function remember(body: { id: string; category: string; filename: string }) {
    uploaded.push({ id: body.id, category: body.category, filename: body.filename });
  }

  /** screenshot-basic's NUI: dataURItoBlob, FormData field, fetch(mode: cors), answer handed to Lua as text. */
  async function screenshotBasic(url: string, field: string, encoding: string | undefined, image: Buffer, headers: Record<string, string> = {}) {
    const type = encoding === "jpg" ? "image/jpeg" : encoding === "webp" ? "image/webp" : "image/png";
    const formData = new FormData();
    formData.append(field, blob(image, type), `screenshot.${encoding}`);
    const res = await client.request(url, { headers: { Origin: "https://cfx-nui-screenshot-basic", ...headers }, body: formData });
    return { res, text: await res.clone().text() };
  }

  describe("screenshot-basic requestScreenshotUpload", () => {
    it("3 arguments (url, field, cb): jpg by default, key in the URL", async () => {
      const image = await jpeg(64, 36);
      const { res, text } = await screenshotBasic(`/api/upload?apiKey=${setup.key}`, "screenshot", "jpg", image);
      await expectApiResponse(res, "post", "/api/upload");
      expect(res.status).toBe(201);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const resp = JSON.parse(text);
      remember(resp);
      await expectSameImage(resp.url, image);
    });

    it("4 arguments with options lacking an encoding: a PNG named screenshot.undefined, headers from options", async () => {
      const image = await png(64, 36);
      const { res, text } = await screenshotBasic("/api/upload", "files[]", undefined, image, { Authorization: `Bearer ${setup.key}` });
      await expectApiResponse(res, "post", "/api/upload");
      const resp = JSON.parse(text);
      expect(resp.original_filename).toBe("screenshot.undefined");
      expect(resp.files[0].url).toBe(resp.url);
      remember(resp);
      await expectSameImage(resp.data.url, image);
    });
  });

  it("fmsdk takeServerImage: field image, WebP bytes in image.png, metadata, Authorization as the raw key; reads url", async () => {
    const webp = await sharp({ create: { width: 48, height: 27, channels: 3, background: "#224466" } }).webp().toBuffer();
    const formData = new FormData();
    formData.append("image", blob(webp, "application/octet-stream"), "image.png");
    formData.append("metadata", JSON.stringify({ playerSource: 12, name: "Tommy" }));
    const res = await client.request("/api/upload", { headers: { Authorization: setup.key }, body: formData });
    const body = await expectApiResponse(res, "post", "/api/upload");
    expect(res.status).toBe(201);
    expect(body.mime_type).toBe("image/webp");
    expect(new URL(body.url).href).toBe(body.url);
    remember(body);
    await expectSameImage(body.url, webp);
  });

  describe("Fivemanage", () => {
    it("multipart with file, filename and metadata; reads url", async () => {
      const image = await png(40, 30);
      const formData = new FormData();
      formData.append("file", blob(image, "image/png"), "mugshot.png");
      formData.append("filename", "mugshot-abc123.png");
      formData.append("metadata", JSON.stringify({ citizenid: "ABC123" }));
      const res = await client.request("/api/upload?category=mugshots", { headers: { Authorization: setup.key }, body: formData });
      const body = await expectApiResponse(res, "post", "/api/upload");
      expect(body.metadata).toEqual({ citizenid: "ABC123" });
      remember(body);
      await expectSameImage(body.url, image);
    });

    it("Lua PerformHttpRequest JSON base64 with a data URI; reads url", async () => {
      const image = await png(20, 20);
      const res = await client.request("/api/upload", {
        headers: { "Content-Type": "application/json", Authorization: setup.key },
        body: JSON.stringify({ base64: `data:image/png;base64,${image.toString("base64")}`, filename: "mugshot.png", metadata: { citizenid: "XYZ" } }),
      });
      const body = await expectApiResponse(res, "post", "/api/upload");
      expect(body.metadata).toEqual({ citizenid: "XYZ" });
      remember(body);
      await expectSameImage(body.url, image);
    });
  });

  describe("Fivemerr", () => {
    it("JSON { data } with bare base64 to /api/upload/base64", async () => {
      const image = await jpeg(30, 20);
      const res = await client.request("/api/upload/base64", {
        headers: { "Content-Type": "application/json", Authorization: setup.key },
        body: JSON.stringify({ data: image.toString("base64") }),
      });
      const body = await expectApiResponse(res, "post", "/api/upload/base64");
      remember(body);
      await expectSameImage(body.url, image);
    });

    it("form-data with the file in a field named data", async () => {
      const image = await jpeg(31, 20);
      const formData = new FormData();
      formData.append("data", blob(image, "image/jpeg"), "evidence.jpg");
      const res = await client.request("/api/upload", { headers: { Authorization: setup.key }, body: formData });
      const body = await expectApiResponse(res, "post", "/api/upload");
      remember(body);
      await expectSameImage(body.url, image);
    });

    it("x-www-form-urlencoded file=data:image/png;base64,… with + sent as space", async () => {
      const image = await png(33, 21);
      // A Lua client that builds the body by hand leaves '+' unescaped: the server reads it as a space.
      const raw = `file=data:image/png;base64,${image.toString("base64")}&category=police_evidence`;
      const res = await client.request("/api/upload", {
        headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: setup.key },
        body: raw,
      });
      const body = await expectApiResponse(res, "post", "/api/upload");
      expect(res.status).toBe(201);
      expect(body.category).toBe("police_evidence");
      remember(body);
      await expectSameImage(body.url, image);
    });
  });

  it("screencapture serverCapture(…, 'base64'): the raw data URI as a text/plain body", async () => {
    const image = await png(20, 10);
    const res = await client.request("/api/upload?category=screenshots", {
      headers: { "Content-Type": "text/plain", "x-api-key": setup.key },
      body: `data:image/png;base64,${image.toString("base64")}`,
    });
    const body = await expectApiResponse(res, "post", "/api/upload");
    expect(body.category).toBe("screenshots");
    remember(body);
    await expectSameImage(body.url, image);
  });

  describe("LB Phone", () => {
    it("Custom upload method: ?api= in the URL template, field file, success.path url", async () => {
      const config = { url: `/api/upload?api=${setup.key}`, field: "file", success: { path: "url" }, error: { path: "success", value: false } };
      const photo = await sharp({ create: { width: 60, height: 80, channels: 3, background: "#aa3311" } }).webp().toBuffer();
      const formData = new FormData();
      formData.append(config.field, blob(photo, "image/webp"), "photo.webp");
      const res = await client.request(config.url, { headers: { Origin: "https://cfx-nui-lb-phone" }, body: formData });
      const body = await expectApiResponse(res, "post", "/api/upload");
      expect(walk(body, [config.error.path])).not.toBe(config.error.value);
      const url = walk(body, config.success.path.split(".")) as string;
      remember(body);
      await expectSameImage(url, photo);
    });

    it("Custom upload method with headers { Authorization = 'Key …' }", async () => {
      const photo = await jpeg(40, 40);
      const formData = new FormData();
      formData.append("file", blob(photo, "image/jpeg"), "photo.jpg");
      const res = await client.request("/api/upload?category=phone_photos", { headers: { Authorization: `Key ${setup.key}` }, body: formData });
      const body = await expectApiResponse(res, "post", "/api/upload");
      expect(res.status).toBe(201);
      remember(body);
    });

    it.each([
      ["video", "phone_videos", () => videoClip, "video/webm"],
      ["voice note", "phone_audio", () => voiceNote, "audio/webm"],
    ] as const)("MediaRecorder %s: stored with a duration, playable by Range", async (_what, category, clip, storedType) => {
      const { bytes, mimeType } = clip();
      const formData = new FormData();
      formData.append("file", blob(bytes, mimeType), `${category}.webm`);
      const res = await client.request(`/api/upload?category=${category}`, { headers: { Authorization: `Key ${setup.key}` }, body: formData });
      const body = await expectApiResponse(res, "post", "/api/upload");
      expect(res.status).toBe(201);
      expect(body.mime_type).toBe(storedType);
      remember(body);

      const meta = await client.request(`/api/files/${body.id}`, { headers: { Authorization: setup.key } });
      const file = await meta.json();
      expect(meta.status).toBe(200);
      // Recorded for 2 s; MediaRecorder wrote no duration, so this one came from the remux on arrival.
      expect(file.duration_ms).toBeGreaterThan(1200);
      expect(file.duration_ms).toBeLessThan(4000);

      const { res: ranged, bytes: part } = await fetchBack(body.url, { Range: "bytes=0-1023" });
      expect(ranged.status).toBe(206);
      expect(part.length).toBe(1024);
      expect(ranged.headers.get("content-range")).toMatch(/^bytes 0-1023\/\d+$/);
    });

    it("an Ogg/Opus voice note is accepted as audio", async () => {
      const formData = new FormData();
      formData.append("file", blob(testTone(1), "audio/ogg"), "voice.ogg");
      const res = await client.request("/api/upload?category=phone_audio", { headers: { Authorization: `Key ${setup.key}` }, body: formData });
      const body = await expectApiResponse(res, "post", "/api/upload");
      expect(body.mime_type).toMatch(/^audio\//);
      remember(body);
    });

    it("presigned method, POST: the server asks with its key, the phone posts with none and reads result", async () => {
      const presign = await client.request("/api/upload/presign?fileType=image", { headers: { Authorization: setup.key } });
      const grant = await expectApiResponse(presign, "get", "/api/upload/presign");
      const uploadUrl = walk(grant, ["data", "presignedUrl"]) as string;
      const photo = await png(24, 24);
      const formData = new FormData();
      formData.append("file", blob(photo, "image/png"), "photo.png");
      const res = await client.request(uploadUrl, { headers: { Origin: "https://cfx-nui-lb-phone" }, body: formData });
      const body = await expectApiResponse(res, "post", "/api/upload/presigned/{token}");
      expect(res.status).toBe(201);
      // What GetPresignedUrl handed the phone as `result` is where the file now is.
      expect(body.url).toBe(grant.result);
      remember(body);
      await expectSameImage(grant.result, photo);
    });

    it("presigned method, PUT: lb-presigned's shape (presignedUrl + fileUrl), raw bytes with their Content-Type", async () => {
      const presign = await client.request("/api/upload/presign", { headers: { "x-api-key": setup.key } });
      const grant = await expectApiResponse(presign, "get", "/api/upload/presign");
      expect(grant.public_url).toBe(grant.result);
      expect(grant.data.public_url).toBe(grant.result);
      const photo = await sharp({ create: { width: 50, height: 50, channels: 3, background: "#11aa55" } }).webp().toBuffer();
      const put = await client.request(grant.data.presignedUrl, { method: "PUT", headers: { "Content-Type": "image/webp" }, body: photo });
      const body = await expectApiResponse(put, "put", "/api/upload/presigned/{token}");
      expect(put.status).toBe(201);
      expect(body.url).toBe(grant.data.url);
      remember(body);
      await expectSameImage(grant.result, photo);
    });
  });

  it("NPWD: no Authorization prefix (a leading space), field image, a Blob named blob; returnedDataIndexes", async () => {
    const images = { url: "/api/upload", type: "image", authorizationHeader: "Authorization", authorizationPrefix: "", returnedDataIndexes: ["data", "url"] };
    const webp = await sharp({ create: { width: 32, height: 18, channels: 3, background: "#336699" } }).webp().toBuffer();
    const formData = new FormData();
    formData.append(images.type, blob(webp, "image/webp"));
    const res = await client.request(images.url, {
      headers: { Origin: "https://cfx-nui-npwd", [images.authorizationHeader]: `${images.authorizationPrefix} ${setup.key}` },
      body: formData,
    });
    const body = await expectApiResponse(res, "post", "/api/upload");
    expect(res.status).toBe(201);
    remember(body);
    await expectSameImage(walk(body, images.returnedDataIndexes) as string, webp);
  });

  describe("Discord webhook scripts through the webhook URL the owner copied", () => {
    it("qb-phone: screenshot-basic to the webhook with files[], reading attachments[0].proxy_url", async () => {
      const image = await jpeg(44, 22);
      const { res, text } = await screenshotBasic(setup.webhookUrl, "files[]", "jpg", image);
      await expectApiResponse(res, "post", "/api/webhooks/{server_id}/{secret}");
      const message = JSON.parse(text);
      expect(message.attachments[0].proxy_url).toMatch(/\/f\//);
      await expectSameImage(message.attachments[0].proxy_url, image);
    });

    it("a log script posting embeds as JSON with ?wait=true gets the message back", async () => {
      const res = await client.request(`${setup.webhookUrl}?wait=true`, {
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username: "Logs", embeds: [{ title: "Player joined", color: 65280 }] }),
      });
      const message = await expectApiResponse(res, "post", "/api/webhooks/{server_id}/{secret}");
      expect(res.status).toBe(200);
      expect(message).toMatchObject({ embeds: [{ title: "Player joined" }], attachments: [] });
    });

    it("a bodycam script sending payload_json and file", async () => {
      const formData = new FormData();
      formData.append("payload_json", JSON.stringify({ content: "Bodycam" }));
      formData.append("file", blob(await jpeg(), "image/jpeg"), "bodycam.jpg");
      const res = await client.request(setup.webhookUrl, { body: formData });
      const message = await expectApiResponse(res, "post", "/api/webhooks/{server_id}/{secret}");
      expect(message.content).toBe("Bodycam");
      expect(message.attachments[0].url).toMatch(/\/f\//);
    });
  });

  describe("ShareX custom uploader (.sxcu)", () => {
    const sxcu = () => ({ RequestURL: "/api/upload", Headers: { "x-api-key": setup.key }, FileFormName: "file", URL: "{json:url}", ErrorMessage: "{json:error}" });

    it("uploads with FileFormName and reads {json:url}", async () => {
      const config = sxcu();
      const formData = new FormData();
      formData.append(config.FileFormName, blob(await png(), "image/png"), "Screenshot_2026-11-22.png");
      const res = await client.request(config.RequestURL, { headers: { ...config.Headers, "User-Agent": "ShareX/16.1.0" }, body: formData });
      const body = await expectApiResponse(res, "post", "/api/upload");
      expect(body.original_filename).toBe("Screenshot_2026-11-22.png");
      remember(body);
    });

    it("shows {json:error} on a wrong key, and the connection still carries the next request", async () => {
      const formData = new FormData();
      formData.append("file", blob(Buffer.alloc(200_000, 7), "image/png"), "evil.png");
      const res = await client.request("/api/upload", { headers: { "x-api-key": "sk_wrong" }, body: formData });
      const body = await expectApiResponse(res, "post", "/api/upload");
      expect(body.error).toBe("Invalid API key");
      const health = await client.request("/api/health");
      expect(health.status).toBe(200);
    });
  });

  it("answers a game UI's CORS preflight from https://cfx-nui-<resource> and the request that follows", async () => {
    const preflight = await client.request("/api/upload", {
      method: "OPTIONS",
      headers: { Origin: "https://cfx-nui-npwd", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,x-api-key" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    const search = await client.request("/api/search", { headers: { Origin: "https://cfx-nui-npwd", Authorization: `Bearer ${setup.key}` } });
    await expectApiResponse(search, "get", "/api/search");
    expect(search.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("used one connection for the whole run", () => {
    expect(client.socketCount()).toBe(1);
  });

  it("the owner finds every uploaded file through the gallery's category filter", async () => {
    const stored = await setup.server.ctx.db.selectFrom("files").select(["id", "category"]).execute();
    expect(stored.length).toBeGreaterThanOrEqual(uploaded.length);
    for (const file of stored) {
      const res = await setup.server.request(`/gallery?category=${encodeURIComponent(file.category)}`, { headers: { Cookie: setup.cookie } });
      expect(res.status).toBe(200);
      expect(await res.text(), `a ${file.category} file in the gallery filtered to its category`).toContain(file.id);
    }
  });
});
