/**
 * Every place scripts put the key and every body shape they send the file in, through real HTTP;
 * and presigned URLs whose answer names the file's public URL before the file exists.
 */
import http from "node:http";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { redactUrl } from "../../app/services/platform/logger.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { expectApiResponse } from "../helpers/openapi.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, png, traceOf } from "../helpers/upload-fixtures.ts";

let server: TestServer;
let account: SeededAccount;
let image: Buffer;

test.beforeAll(async ({ server: started }) => {
  server = started;
  account = await seedAccount(server.ctx);
  // Noise whose base64 holds '+' and '/', so a '+' sent as a space would show.
  image = await png(40, 30);
  expect(image.toString("base64")).toMatch(/\+/);
});

async function upload(pathname: string, init: RequestInit) {
  const res = await server.request(pathname, { method: "POST", ...init });
  return { res, body: await expectApiResponse(res, "post", pathname.split("?")[0]!) };
}

/** The stored bytes, as the public URL serves them. */
async function served(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** POST with no Content-Type at all (fetch always adds one to a string body). */
function postBare(pathname: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; json: Record<string, unknown> }>((resolve, reject) => {
    const req = http.request(new URL(pathname, server.url), { method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the API key in the query", () => {
  it.each(["apiKey", "api_key", "api", "key", "token"])("?%s=<key> authenticates an upload", async (name) => {
    const { res, body } = await upload(`/api/upload?${name}=${account.key}`, { body: form([{ field: "file", data: image, filename: "a.png", type: "image/png" }]) });
    expect(res.status).toBe(201);
    expect(body.url).toContain(`/f/${account.serverId}/`);
  });

  it("a wrong key there is still 401", async () => {
    const { res, body } = await upload(`/api/upload?api=sk_${"x".repeat(40)}`, { body: form([{ field: "file", data: image, filename: "a.png" }]) });
    expect(res.status).toBe(401);
    expect(body.code).toBe("invalid_api_key");
  });

  it("the access log never shows it", () => {
    for (const name of ["apiKey", "api_key", "api", "key", "token", "APIKEY"]) {
      expect(redactUrl(`/api/upload?category=x&${name}=sk_secret&y=1`)).toBe(`/api/upload?category=x&${name}=[redacted]&y=1`);
    }
    expect(redactUrl("/api/upload?api=sk_secret")).toBe("/api/upload?api=[redacted]");
  });
});

describe("x-www-form-urlencoded bodies", () => {
  it("file=data:image/png;base64,… built by hand ('+' unescaped, read as a space), with the other fields", async () => {
    const raw = `file=data:image/png;base64,${image.toString("base64")}&category=police_evidence&filename=evidence.png&player_name=Lamar%20Davis&player_identifier=license:abc`;
    const { res, body } = await upload("/api/upload", { headers: { "content-type": "application/x-www-form-urlencoded", "x-api-key": account.key }, body: raw });
    expect(res.status).toBe(201);
    expect(body).toMatchObject({ category: "police_evidence", original_filename: "evidence.png", player_name: "Lamar Davis", player_identifier: "license:abc", mime_type: "image/png" });
    expect((await served(body.url)).equals(image)).toBe(true);
  });

  it("data=<bare base64>, properly encoded, on /api/upload/base64 too", async () => {
    const encoded = new URLSearchParams({ data: image.toString("base64"), category: "screenshots" });
    for (const pathname of ["/api/upload", "/api/upload/base64"]) {
      const { res, body } = await upload(pathname, { headers: { "x-api-key": account.key }, body: encoded });
      expect(res.status, pathname).toBe(201);
      expect(body.category).toBe("screenshots");
      expect((await served(body.url)).equals(image)).toBe(true);
    }
  });

  it("a form body sent as text/plain is still read as a form", async () => {
    const { res, body } = await upload("/api/upload", {
      headers: { "content-type": "text/plain", "x-api-key": account.key },
      body: `category=phone_photos&file=data:image/png;base64,${image.toString("base64")}`,
    });
    expect(res.status).toBe(201);
    expect(body.category).toBe("phone_photos");
  });

  it("a form-encoded file just under the server's limit is accepted although percent-encoding grew its base64", async () => {
    const small = await seedAccount(server.ctx, { server: { maxFileSizeMb: 1 } });
    const noise = Buffer.alloc(590 * 590 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width: 590, height: 590, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    const encoded = new URLSearchParams({ file: big.toString("base64") }).toString();
    const limit = 1024 * 1024;
    expect(big.length).toBeLessThan(limit);
    // Past what the same file takes as JSON: a cap without room for the encoding would refuse it.
    expect(encoded.length).toBeGreaterThan(Math.ceil((limit * 4) / 3) + 64 * 1024);
    const { res, body } = await upload("/api/upload", { headers: { "content-type": "application/x-www-form-urlencoded", "x-api-key": small.key }, body: encoded });
    expect(res.status).toBe(201);
    expect(body.file_size).toBe(big.length);
  });

  it("bad base64 or no file field is a 400 and stores nothing", async () => {
    const before = await traceOf(server, account);
    const bad = await upload("/api/upload", { headers: { "content-type": "application/x-www-form-urlencoded", "x-api-key": account.key }, body: "file=data:image/png;base64,@@@not*base64&category=x" });
    expect(bad.res.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: "invalid_request", error: "The file is not valid base64" });
    const none = await upload("/api/upload", { headers: { "content-type": "application/x-www-form-urlencoded", "x-api-key": account.key }, body: "category=x&player_name=y" });
    expect(none.res.status).toBe(400);
    expect(none.body.code).toBe("missing_file");
    expect(await traceOf(server, account)).toEqual(before);
  });
});

describe("a data URI or bare base64 in any text body", () => {
  it.each([
    ["text/plain, data URI", "text/plain", () => `data:image/png;base64,${image.toString("base64")}`],
    ["text/plain, bare base64", "text/plain", () => image.toString("base64")],
    ["application/json, a JSON string", "application/json", () => JSON.stringify(`data:image/png;base64,${image.toString("base64")}`)],
    ["text/plain, base64 wrapped at 76 columns", "text/plain", () => image.toString("base64").replace(/.{76}/g, "$&\r\n")],
  ])("%s", async (_name, type, text) => {
    const { res, body } = await upload("/api/upload?category=screenshots", { headers: { "content-type": type, "x-api-key": account.key }, body: text() });
    expect(res.status).toBe(201);
    expect(body.category).toBe("screenshots");
    expect((await served(body.url)).equals(image)).toBe(true);
  });

  it("with no Content-Type at all", async () => {
    const res = await postBare("/api/upload?category=screenshots", `data:image/png;base64,${image.toString("base64")}`, { "x-api-key": account.key });
    expect(res.status).toBe(201);
    expect((await served(String(res.json.url))).equals(image)).toBe(true);
  });

  it("bad base64 or a JSON array is a 400 and stores nothing", async () => {
    const before = await traceOf(server, account);
    for (const [type, text] of [
      ["text/plain", "data:image/png;base64,!!!"],
      ["text/plain", "not-base64!"],
      ["application/json", "[1, 2]"],
      ["application/json", '"%%%"'],
    ]) {
      const { res, body } = await upload("/api/upload", { headers: { "content-type": type!, "x-api-key": account.key }, body: text });
      expect(res.status, text).toBe(400);
      expect(body.success).toBe(false);
    }
    expect(await traceOf(server, account)).toEqual(before);
  });
});

describe("presigned uploads name the file's URL up front", () => {
  async function presign(query = "") {
    const res = await server.request(`/api/upload/presign${query}`, { headers: { "x-api-key": account.key } });
    expect(res.status).toBe(200);
    return expectApiResponse(res, "get", "/api/upload/presign");
  }

  it("POST multipart lands exactly at result / public_url / data.url, and the URL takes no second upload", async () => {
    const grant = await presign("?category=phone_photos&mime_type=image/png");
    expect(grant.result).toMatch(new RegExp(`/f/${account.serverId}/phone_photos/[0-9a-z]{20}\\.png$`));
    expect(grant).toMatchObject({ public_url: grant.result, fileUrl: grant.result, upload: grant.url, upload_url: grant.url, category: "phone_photos" });
    expect(grant.data).toMatchObject({ url: grant.result, public_url: grant.result, presignedUrl: grant.url });
    // Nothing is there yet.
    expect((await fetch(grant.result)).status).toBe(404);

    const res = await fetch(grant.upload, { method: "POST", body: form([{ field: "category", data: "ignored" }, { field: "file", data: image, filename: "p.png", type: "image/png" }]) });
    const body = await expectApiResponse(res, "post", "/api/upload/presigned/{token}");
    expect(res.status).toBe(201);
    expect(body.url).toBe(grant.result);
    expect(body.category).toBe("phone_photos");
    expect((await served(grant.result)).equals(image)).toBe(true);

    const again = await fetch(grant.upload, { method: "PUT", headers: { "content-type": "image/png" }, body: new Uint8Array(image) });
    expect(again.status).toBe(403);
    expect((await again.json()).code).toBe("invalid_upload_url");
  });

  it("PUT raw bytes lands there too; without a type hint the name has no extension and the type comes from the bytes", async () => {
    const grant = await presign();
    expect(grant.result).toMatch(new RegExp(`/f/${account.serverId}/other/[0-9a-z]{20}$`));
    const res = await fetch(grant.data.presignedUrl, { method: "PUT", headers: { "content-type": "image/png" }, body: new Uint8Array(image) });
    const body = await expectApiResponse(res, "put", "/api/upload/presigned/{token}");
    expect(res.status).toBe(201);
    expect(body).toMatchObject({ url: grant.data.url, mime_type: "image/png" });
    const file = await fetch(grant.result);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await file.arrayBuffer()).equals(image)).toBe(true);
  });

  it("keeps the promised name on a server that converts images to WebP", async () => {
    const converting = await seedAccount(server.ctx, { convertToWebp: true });
    const res = await server.request("/api/upload/presign?fileType=image/png", { headers: { "x-api-key": converting.key } });
    const grant = await expectApiResponse(res, "get", "/api/upload/presign");
    const put = await fetch(grant.upload, { method: "PUT", headers: { "content-type": "image/png" }, body: new Uint8Array(image) });
    const body = await expectApiResponse(put, "put", "/api/upload/presigned/{token}");
    expect(put.status).toBe(201);
    expect(body.url).toBe(grant.result);
    expect((await fetch(grant.result)).status).toBe(200);
  });

  it("a presigned URL takes one file: two parts are a 400 and store nothing, and the URL stays usable", async () => {
    const grant = await presign("?mime_type=png");
    expect(grant.filename).toMatch(/^[0-9a-z]{20}\.png$/);
    const before = await traceOf(server, account);
    const two = await fetch(grant.upload, {
      method: "POST",
      body: form([
        { field: "file", data: image, filename: "a.png", type: "image/png" },
        { field: "file", data: image, filename: "b.png", type: "image/png" },
      ]),
    });
    expect(two.status).toBe(400);
    expect((await two.json()).error).toBe("Send one file per request");
    expect(await traceOf(server, account)).toEqual(before);
    const one = await fetch(grant.upload, { method: "POST", body: form([{ field: "file", data: image, filename: "a.png", type: "image/png" }]) });
    expect(one.status).toBe(201);
    expect((await one.json()).url).toBe(grant.result);
  });
});
