import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stashTest } from "../helpers/fixtures.ts";
import { GB } from "../../app/lib/plans.ts";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { expectApiResponse } from "../helpers/openapi.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, jpeg, pdf, png, traceOf } from "../helpers/upload-fixtures.ts";
import { BUFFERED_UPLOAD_BYTES } from "../../app/services/uploads/upload-buffers.server.ts";

const test = stashTest({ MAX_UPLOAD_MB: "2" });

const MB = 1024 * 1024;
let server: TestServer;
let account: SeededAccount;

test.beforeAll(async ({ server: started }) => {
  // MAX_UPLOAD_MB caps every server's own limit (50 MB by default) to 2 MB here.
  server = started;
  account = await seedAccount(server.ctx);
});

async function upload(body: BodyInit, headers: Record<string, string> = {}, who: SeededAccount = account, pathname = "/api/upload") {
  const res = await server.request(pathname, { method: "POST", body, headers: { "x-api-key": who.key, ...headers } });
  return { res, body: await expectApiResponse(res, "post", pathname) };
}

/** Sends a request by hand: declared headers, some bytes, then either end or cut the connection. */
function rawRequest(options: { path: string; headers: Record<string, string | number>; chunks: Buffer[]; abort?: boolean }) {
  return new Promise<{ status: number; body: string } | "aborted">((resolve, reject) => {
    const url = new URL(server.url);
    const req = http.request({ host: "127.0.0.1", port: url.port, path: options.path, method: "POST", headers: options.headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", (error) => (options.abort ? resolve("aborted") : reject(error)));
    for (const chunk of options.chunks) req.write(chunk);
    if (options.abort) setTimeout(() => req.destroy(), 300);
    else req.end();
  });
}

async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("condition not met in time");
}

describe("POST /api/upload (multipart)", () => {
  it("stores a file, answers 201 with every documented field and counts it", async () => {
    const image = await png();
    const { res, body } = await upload(
      form([
        { field: "category", data: "Phone Photos!" },
        { field: "player_name", data: "Niko Bellic" },
        { field: "player_identifier", data: "license:abc123" },
        { field: "metadata", data: JSON.stringify({ case: 42, location: "Vinewood" }) },
        { field: "file", data: image, filename: "../../selfie<1>.png", type: "image/png" },
      ]),
    );
    expect(res.status).toBe(201);
    expect(body).toMatchObject({
      success: true,
      status: "ok",
      error: false,
      category: "phone_photos",
      original_filename: "selfie1.png",
      file_size: image.length,
      mime_type: "image/png",
      is_public: true,
      player_name: "Niko Bellic",
      player_identifier: "license:abc123",
      metadata: { case: 42, location: "Vinewood" },
    });
    expect(body.filename).toMatch(/^[a-z0-9]{20}\.png$/);
    expect(body.url).toBe(`${server.url.replace("localhost", "127.0.0.1")}/f/${account.serverId}/phone_photos/${body.filename}`);
    expect(body.public_url).toBe(body.url);
    expect(body.data).toEqual({ id: body.id, url: body.url, link: body.url, public_url: body.url, filename: body.filename });
    expect(body.attachments).toEqual([{ url: body.url, proxy_url: body.url }]);
    expect(body.files).toHaveLength(1);

    const trace = await traceOf(server, account);
    expect(trace).toMatchObject({ rows: 1, usedBytes: image.length, serverUsedBytes: image.length, uploads: 1, uploadBytes: image.length });
    // The file and its gallery thumbnail.
    expect(trace.blobs).toEqual([`${account.serverId}/phone_photos/${body.filename}`, `${account.serverId}/phone_photos/${body.filename}.variants/w320_h0_inside_q80.webp`]);

    const served = await fetch(body.url.replace(/^https?:\/\/[^/]+/, server.url));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
  });

  it("stores every file part whatever its field name, all returned", async () => {
    const before = await traceOf(server, account);
    const a = await png(5, 5);
    const b = await jpeg();
    const { res, body } = await upload(
      form([
        { field: "files[0]", data: a, filename: "a.png" },
        { field: "image", data: b, filename: "b.jpg" },
      ]),
    );
    expect(res.status).toBe(201);
    expect(body.files.map((f: { mime_type: string }) => f.mime_type)).toEqual(["image/png", "image/jpeg"]);
    expect(body.attachments).toHaveLength(2);
    const after = await traceOf(server, account);
    expect(after.rows).toBe(before.rows + 2);
    expect(after.usedBytes).toBe(before.usedBytes + a.length + b.length);
  });

  it("uses the server's default visibility when is_public is absent, the field when sent", async () => {
    const privateByDefault = await seedAccount(server.ctx, { server: { defaultPublic: false } });
    const absent = await upload(form([{ field: "file", data: await png(), filename: "x.png" }]), {}, privateByDefault);
    expect(absent.body.is_public).toBe(false);
    const explicit = await upload(form([{ field: "is_public", data: "true" }, { field: "file", data: await png(), filename: "x.png" }]), {}, privateByDefault);
    expect(explicit.body.is_public).toBe(true);
  });

  it("takes the type from the bytes, not the name or Content-Type: 415 and no trace", async () => {
    const before = await traceOf(server, account);
    const { res, body } = await upload(form([{ field: "file", data: "<html><script>alert(1)</script></html>", filename: "cute.png", type: "image/png" }]));
    expect(res.status).toBe(415);
    expect(body).toMatchObject({ code: "unsupported_file_type", detected_type: "text/plain" });
    const renamed = await upload(form([{ field: "file", data: pdf(2000), filename: "photo.jpg", type: "image/jpeg" }]), {}, await seedAccount(server.ctx, { server: { allowedFileTypes: ["jpg"] } }));
    expect(renamed.res.status).toBe(415);
    expect(await traceOf(server, account)).toEqual(before);
  });

  it("rejects bad fields with 400 and stores nothing", async () => {
    const before = await traceOf(server, account);
    const image = await png();
    const cases: [Record<string, string>, string][] = [
      [{ metadata: "{not json" }, "invalid_metadata"],
      [{ metadata: "[1,2]" }, "invalid_metadata"],
      [{ metadata: JSON.stringify({ blob: "x".repeat(17 * 1024) }) }, "invalid_metadata"],
      [{ is_public: "maybe" }, "invalid_request"],
    ];
    for (const [fields, code] of cases) {
      const parts = [...Object.entries(fields).map(([field, data]) => ({ field, data })), { field: "file", data: image, filename: "a.png" }];
      const { res, body } = await upload(form(parts));
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(body.code).toBe(code);
    }
    const none = await upload(form([{ field: "category", data: "x" }]));
    expect(none.res.status).toBe(400);
    expect(none.body).toMatchObject({ code: "missing_file", error: "No file provided" });
    const empty = await upload(form([{ field: "file", data: Buffer.alloc(0), filename: "a.png" }]));
    expect(empty.res.status).toBe(400);
    expect(await traceOf(server, account)).toEqual(before);
  });

  it("answers 403 for another server's id in the form, a key without upload, or a server that is not active", async () => {
    const before = await traceOf(server, account);
    const mismatch = await upload(form([{ field: "file", data: await png(), filename: "a.png" }, { field: "server_id", data: "otherserver1" }]));
    expect(mismatch.res.status).toBe(403);
    expect(mismatch.body.code).toBe("server_mismatch");
    expect(await traceOf(server, account)).toEqual(before);

    const readOnly = await createApiKey(server.ctx.db, { serverId: account.serverId, teamId: account.teamId, name: "r", permissions: ["read"] });
    const denied = await upload(form([{ field: "file", data: await png(), filename: "a.png" }]), {}, { ...account, key: readOnly.secret });
    expect(denied.res.status).toBe(403);
    expect(denied.body.code).toBe("permission_denied");

    const paused = await seedAccount(server.ctx);
    await server.ctx.db.updateTable("servers").set({ status: "maintenance" }).where("id", "=", paused.serverId).execute();
    const inactive = await upload(form([{ field: "file", data: await png(), filename: "a.png" }]), {}, paused);
    expect(inactive.res.status).toBe(403);
    expect(inactive.body.code).toBe("server_inactive");
  });

  it("answers 401 without a key and 405 to GET", async () => {
    const res = await server.request("/api/upload", { method: "POST", body: form([{ field: "file", data: await png(), filename: "a.png" }]) });
    expect(res.status).toBe(401);
    await expectApiResponse(res, "post", "/api/upload");
    const get = await server.request("/api/upload");
    expect(get.status).toBe(405);
    expect((await get.json()).code).toBe("method_not_allowed");
  });
});

/** A multipart body sent as a stream without Content-Length, so only the limits applied while streaming can stop it. */
function chunkedForm(bytes: Uint8Array, contentType: string, who: SeededAccount = account) {
  const body = new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 256 * 1024) controller.enqueue(bytes.subarray(i, i + 256 * 1024));
      controller.close();
    },
  });
  return server.request("/api/upload", { method: "POST", body, headers: { "x-api-key": who.key, "content-type": contentType }, duplex: "half" } as RequestInit);
}

async function serialise(body: FormData) {
  const serialised = new Response(body);
  return { bytes: new Uint8Array(await serialised.arrayBuffer()), contentType: serialised.headers.get("content-type")! };
}

describe("stored bytes", () => {
  it("keeps a file from a small request (read whole) and one from a large request (streamed) byte for byte, with their SHA-256", async () => {
    for (const size of [BUFFERED_UPLOAD_BYTES - 4096, BUFFERED_UPLOAD_BYTES + 300_000]) {
      const file = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(size - 9)]);
      // Serialised first, so the request carries its Content-Length, as game scripts' requests do.
      const { bytes, contentType } = await serialise(form([{ field: "file", data: file, filename: "report.pdf", type: "application/pdf" }]));
      const { res, body } = await upload(bytes, { "content-type": contentType });
      expect(res.status).toBe(201);
      expect(body.file_size).toBe(file.length);
      expect(body.sha256).toBe(createHash("sha256").update(file).digest("hex"));
      const served = await server.request(new URL(body.url).pathname);
      expect(Buffer.from(await served.arrayBuffer()).equals(file)).toBe(true);
    }
  });
});

describe("size limits", () => {
  it("applies the limit to each file: several files each under it are stored together", async () => {
    const before = await traceOf(server, account);
    const files = [pdf(1.5 * MB), pdf(1.5 * MB), pdf(1.9 * MB)];
    // 4.9 MB in one request, Content-Length included: over the 2 MB limit in total, under it per file.
    const { res, body } = await upload(form(files.map((data, i) => ({ field: `files[${i}]`, data, filename: `part${i}.pdf` }))));
    expect(res.status).toBe(201);
    expect(body.files.map((f: { file_size: number }) => f.file_size)).toEqual(files.map((f) => f.length));
    const after = await traceOf(server, account);
    expect(after.rows).toBe(before.rows + 3);
    expect(after.usedBytes).toBe(before.usedBytes + files.reduce((sum, f) => sum + f.length, 0));
  });

  it("refuses a request with one oversize file among good ones with 413 and stores none of them", async () => {
    const before = await traceOf(server, account);
    const parts = [
      { field: "files[0]", data: pdf(1.5 * MB), filename: "fine.pdf" },
      { field: "files[1]", data: await png(), filename: "fine.png" },
      { field: "files[2]", data: pdf(3 * MB), filename: "big.pdf" },
    ];
    for (const send of [
      async () => upload(form(parts)),
      async () => {
        const { bytes, contentType } = await serialise(form(parts));
        const res = await chunkedForm(bytes, contentType);
        return { res, body: await expectApiResponse(res, "post", "/api/upload") };
      },
    ]) {
      const { res, body } = await send();
      expect(res.status).toBe(413);
      expect(body).toMatchObject({ code: "file_too_large", error: "File size exceeds maximum allowed size of 2MB", max_size_mb: 2 });
      expect(await traceOf(server, account)).toEqual(before);
    }
  });

  it("refuses a Content-Length over the whole-request ceiling before reading the body", async () => {
    // The ceiling is 20 files at the 2 MB limit plus room for framing and fields: about 47 MB.
    const result = await rawRequest({
      path: "/api/upload",
      headers: { "x-api-key": account.key, "content-type": "multipart/form-data; boundary=xyz", "content-length": 100 * MB },
      chunks: [Buffer.from("--xyz\r\n")],
    });
    expect(result).not.toBe("aborted");
    const { status, body } = result as { status: number; body: string };
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({
      success: false,
      code: "request_too_large",
      error: "The upload is too large: send at most 20 files of up to 2MB each",
      max_files: 20,
      max_size_mb: 2,
    });
  });

  it("cuts off a body that streams past the whole-request ceiling, whatever fills it, and leaves no trace", async () => {
    const small = await seedAccount(server.ctx, { server: { maxFileSizeMb: 1 } });
    const before = await traceOf(server, small);
    // A stored file, then a text field far beyond any field limit: no single file is too large, the request is.
    const { bytes, contentType } = await serialise(
      form([
        { field: "file", data: await png(), filename: "fine.png" },
        { field: "note", data: "x".repeat(28 * MB) },
      ]),
    );
    const res = await chunkedForm(bytes, contentType, small);
    const body = await expectApiResponse(res, "post", "/api/upload");
    expect(res.status).toBe(413);
    expect(body).toMatchObject({ code: "request_too_large", max_files: 20, max_size_mb: 1 });
    expect(await traceOf(server, small)).toEqual(before);
  });

  it("cuts off a stream that passes the limit with 413 and leaves no trace", async () => {
    const before = await traceOf(server, account);
    const { bytes, contentType } = await serialise(form([{ field: "file", data: pdf(3 * MB), filename: "big.pdf" }]));
    const res = await chunkedForm(bytes, contentType);
    const body = await expectApiResponse(res, "post", "/api/upload");
    expect(res.status).toBe(413);
    expect(body).toMatchObject({ code: "file_too_large", error: "File size exceeds maximum allowed size of 2MB", max_size_mb: 2 });
    expect(body.file_size_mb).toBeGreaterThan(2);
    expect(await traceOf(server, account)).toEqual(before);
  });

  it("uses the server's own limit when it is lower", async () => {
    const small = await seedAccount(server.ctx, { server: { maxFileSizeMb: 1 } });
    const { res, body } = await upload(form([{ field: "file", data: pdf(1.5 * MB), filename: "a.pdf" }]), {}, small);
    expect(res.status).toBe(413);
    expect(body).toMatchObject({ error: "File size exceeds maximum allowed size of 1MB", max_size_mb: 1 });
  });
});

describe("quota", () => {
  it("answers 413 quota_exceeded over the account's quota and changes nothing", async () => {
    const full = await seedAccount(server.ctx);
    await server.ctx.db.updateTable("account_usage").set({ used_bytes: 5 * GB - 1000 }).where("team_id", "=", full.teamId).execute();
    const before = await traceOf(server, full);
    const { res, body } = await upload(form([{ field: "file", data: pdf(5000), filename: "a.pdf" }]), {}, full);
    expect(res.status).toBe(413);
    expect(body).toMatchObject({ code: "quota_exceeded", quota_bytes: 5 * GB });
    expect(await traceOf(server, full)).toEqual(before);

    const fits = await upload(form([{ field: "file", data: pdf(900), filename: "a.pdf" }]), {}, full);
    expect(fits.res.status).toBe(201);
    expect((await traceOf(server, full)).usedBytes).toBe(5 * GB - 100);

    await server.ctx.db.updateTable("account_usage").set({ used_bytes: 5 * GB }).where("team_id", "=", full.teamId).execute();
    const atLimit = await upload(form([{ field: "file", data: pdf(10), filename: "a.pdf" }]), {}, full);
    expect(atLimit.res.status).toBe(413);
    expect(atLimit.body.code).toBe("quota_exceeded");
  });
});

describe("interrupted uploads", () => {
  it("leave no row, no blob, no temp file and no usage when the client disconnects", async () => {
    const before = await traceOf(server, account);
    const boundary = "----stash-abort";
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
    const result = await rawRequest({
      path: "/api/upload",
      headers: { "x-api-key": account.key, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": 1.5 * MB },
      chunks: [head, pdf(600 * 1024)],
      abort: true,
    });
    expect(result).toBe("aborted");
    const tmp = path.join(server.dataDir, "files", ".tmp");
    await waitFor(async () => fs.readdirSync(tmp).length === 0);
    expect(await traceOf(server, account)).toEqual(before);
  });
});

describe("JSON and raw bodies", () => {
  it("accepts base64 and data URIs in base64, file or data, and a raw data-URI body", async () => {
    const image = await png();
    const b64 = image.toString("base64");
    const json = (payload: unknown) => JSON.stringify(payload);
    const variants: [string, string, string][] = [
      ["/api/upload", json({ base64: `data:image/png;base64,${b64}`, filename: "shot.png", category: "screenshots" }), "application/json"],
      ["/api/upload", json({ file: b64, filename: "shot.png", metadata: { plate: "46EEK572" } }), "application/json"],
      ["/api/upload/base64", json({ data: `data:image/png;base64,${b64}`, is_public: false }), "application/json"],
      ["/api/upload", `data:image/png;base64,${b64}`, "text/plain"],
    ];
    for (const [pathname, payload, type] of variants) {
      const { res, body } = await upload(payload, { "content-type": type }, account, pathname);
      expect(res.status, `${pathname} ${payload.slice(0, 40)}`).toBe(201);
      expect(body.mime_type).toBe("image/png");
      expect(body.file_size).toBe(image.length);
    }
  });

  it("takes raw bytes with fields in the query string", async () => {
    const image = await jpeg();
    const { res, body } = await upload(new Uint8Array(image), { "content-type": "image/jpeg" }, account, "/api/upload?category=evidence&filename=dash.jpg");
    expect(res.status).toBe(201);
    expect(body).toMatchObject({ category: "evidence", original_filename: "dash.jpg", mime_type: "image/jpeg" });
  });

  it("answers 400 for bodies without a usable file and 413 for oversized base64", async () => {
    const before = await traceOf(server, account);
    for (const [payload, type] of [
      [JSON.stringify({ filename: "x.png" }), "application/json"],
      [JSON.stringify({ base64: "!!!not base64!!!" }), "application/json"],
      ["{broken", "application/json"],
      ["", "text/plain"],
    ]) {
      const { res } = await upload(payload, { "content-type": type });
      expect(res.status, payload).toBe(400);
    }
    const big = pdf(3 * MB).toString("base64");
    const { res, body } = await upload(JSON.stringify({ base64: big }), { "content-type": "application/json" });
    expect(res.status).toBe(413);
    expect(body.code).toBe("file_too_large");
    expect(await traceOf(server, account)).toEqual(before);
  });
});

describe("upload rate limit", () => {
  it("answers 429 with Retry-After past the plan's uploads per minute", async () => {
    const busy = await seedAccount(server.ctx);
    const image = await png(2, 2);
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) {
      last = await server.request("/api/upload", { method: "POST", body: form([{ field: "file", data: image, filename: "a.png" }]), headers: { "x-api-key": busy.key } });
      if (i < 30) expect(last.status).toBe(201);
    }
    const body = await expectApiResponse(last!, "post", "/api/upload");
    expect(last!.status).toBe(429);
    expect(body.code).toBe("rate_limited");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
