/**
 * Resumable uploads (tus 1.0) for slow links and heavy resource packs, on a server made with the
 * defaults: the real tus-js-client uploads in chunks; an upload whose connection drops mid-PATCH
 * resumes from the offset the server kept; the same key, type, size and quota rules as every upload
 * apply; abandoned partials expire and were never counted.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import * as tus from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { deleteExpiredResumableUploads, tusDirectory } from "../../app/services/uploads/resumable.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { testAudio } from "../helpers/media-fixtures.ts";
import { startLocalS3, type LocalS3 } from "../helpers/s3rver.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import type { FileId } from "../../app/lib/ids.ts";

let server: TestServer;
let account: SeededAccount;
let stranger: SeededAccount;
/** A voice note of about 1.8 MB: an allowed type on a new server. */
const clip = testAudio("wav", 20);

const meta = (filename: string, extra: Record<string, string> = {}) =>
  Object.entries({ filename, ...extra })
    .map(([k, v]) => `${k} ${Buffer.from(v).toString("base64")}`)
    .join(",");

async function usage() {
  const row = await server.ctx.db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", account.teamId).executeTakeFirst();
  return Number(row?.used_bytes ?? 0);
}

async function fileRows() {
  return server.ctx.db.selectFrom("files").select(["id", "size_bytes", "original_filename"]).where("server_id", "=", account.serverId).execute();
}

function partials(): string[] {
  const dir = tusDirectory(server.ctx.config);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** Raw tus requests, as a game server's HTTP stack would make them. */
function tusRequest(method: string, pathname: string, headers: Record<string, string>, body?: Buffer) {
  return server.request(pathname, { method, headers: { "Tus-Resumable": "1.0.0", ...headers }, body: body ? new Uint8Array(body) : undefined });
}

async function create(key: string, length: number, filename: string) {
  return tusRequest("POST", "/api/uploads/tus", { "x-api-key": key, "Upload-Length": String(length), "Upload-Metadata": meta(filename, { category: "bodycam" }) });
}

test.beforeAll(async ({ server: started }) => {
  server = started;
  account = await seedAccount(server.ctx, { server: { allowedFileTypes: undefined } });
  stranger = await seedAccount(server.ctx, { server: { allowedFileTypes: undefined } });
});

describe("resumable uploads (tus)", { timeout: 120_000 }, () => {
  it("takes an upload from tus-js-client in chunks and answers with the stored file", async () => {
    const answer = await new Promise<{ status: number; body: string; url: string | null }>((resolve, reject) => {
      const upload = new tus.Upload(clip, {
        endpoint: `${server.url}/api/uploads/tus`,
        headers: { "x-api-key": account.key },
        chunkSize: 512 * 1024,
        metadata: { filename: "voice-note.wav", filetype: "audio/wav", category: "voice" },
        onSuccess: ({ lastResponse }) => resolve({ status: lastResponse.getStatus(), body: lastResponse.getBody(), url: upload.url }),
        onError: reject,
      });
      upload.start();
    });
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body);
    expect(body).toMatchObject({ success: true, original_filename: "voice-note.wav", category: "voice", mime_type: "audio/wav" });
    const served = await fetch(new URL(new URL(body.url).pathname, server.url));
    expect(served.status).toBe(200);
    expect((await served.arrayBuffer()).byteLength).toBe(body.file_size);
    expect(await usage()).toBe(body.file_size);
    expect(partials()).toEqual([]);
  });

  it("resumes after the connection drops mid-upload, from the offset the server kept", async () => {
    const before = await usage();
    const created = await create(account.key, clip.length, "bodycam.wav");
    expect(created.status).toBe(201);
    const location = created.headers.get("location")!;
    expect(location).toMatch(/^\/api\/uploads\/tus\/[0-9a-f]{32}$/);

    // Send about half, then drop the connection as a game server losing its link would.
    await new Promise<void>((resolve) => {
      const req = http.request(new URL(location, server.url), {
        method: "PATCH",
        headers: { "Tus-Resumable": "1.0.0", "x-api-key": account.key, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream", "Content-Length": String(clip.length) },
      });
      req.on("error", () => resolve());
      req.on("close", () => resolve());
      req.write(clip.subarray(0, Math.floor(clip.length / 2)), () => setTimeout(() => req.destroy(), 300));
    });
    await new Promise((r) => setTimeout(r, 300));

    const head = await tusRequest("HEAD", location, { "x-api-key": account.key });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get("upload-offset"));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(Math.floor(clip.length / 2));
    expect(head.headers.get("upload-length")).toBe(String(clip.length));
    // Nothing is counted while it is partial.
    expect(await usage()).toBe(before);

    const rest = await tusRequest("PATCH", location, { "x-api-key": account.key, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" }, clip.subarray(offset));
    expect(rest.status).toBe(200);
    const file = await rest.json();
    expect(file).toMatchObject({ success: true, original_filename: "bodycam.wav", category: "bodycam" });
    expect(await usage()).toBe(before + file.file_size);
    expect(partials()).toEqual([]);
  });

  it("applies the key, type, size and quota rules, leaving nothing behind", async () => {
    const rowsBefore = (await fileRows()).length;
    const usageBefore = await usage();

    const noKey = await tusRequest("POST", "/api/uploads/tus", { "Upload-Length": "10", "Upload-Metadata": meta("a.wav") });
    expect(noKey.status).toBe(401);

    const tooBig = await create(account.key, 60 * 1024 * 1024, "huge.wav");
    expect(tooBig.status).toBe(413);
    expect(JSON.parse(await tooBig.text())).toMatchObject({ code: "file_too_large" });

    // Game resources are opt-in: a declared archive is refused before any byte is sent.
    const declared = await create(account.key, 1000, "evidence.zip");
    expect(declared.status).toBe(415);
    expect(JSON.parse(await declared.text())).toMatchObject({ code: "unsupported_file_type" });

    // Bytes that are not what the name says are refused when they are complete.
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(4096, 7)]);
    const lying = await create(account.key, zip.length, "clip.wav");
    expect(lying.status).toBe(201);
    const refused = await tusRequest("PATCH", lying.headers.get("location")!, { "x-api-key": account.key, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }, zip);
    expect(refused.status).toBe(415);

    // Another server's key cannot see or continue someone's upload.
    const open = await create(account.key, clip.length, "mine.wav");
    const foreign = await tusRequest("HEAD", open.headers.get("location")!, { "x-api-key": stranger.key });
    expect(foreign.status).toBe(404);
    await tusRequest("DELETE", open.headers.get("location")!, { "x-api-key": account.key });

    expect((await fileRows()).length).toBe(rowsBefore);
    expect(await usage()).toBe(usageBefore);
    expect(partials()).toEqual([]);
  });

  it("deletes partial uploads abandoned for a day; they were never counted", async () => {
    const usageBefore = await usage();
    const created = await create(account.key, clip.length, "abandoned.wav");
    const location = created.headers.get("location")!;
    const id = location.split("/").pop()!;
    await tusRequest("PATCH", location, { "x-api-key": account.key, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }, clip.subarray(0, 4096));
    expect(await usage()).toBe(usageBefore);

    // A day and a bit later (the upload's recorded creation moved back rather than the clock forward).
    const info = path.join(tusDirectory(server.ctx.config), `${id}.json`);
    const record = JSON.parse(fs.readFileSync(info, "utf8"));
    record.creation_date = new Date(Date.now() - 25 * 3600_000).toISOString();
    fs.writeFileSync(info, JSON.stringify(record));

    expect(await deleteExpiredResumableUploads(server.ctx.config)).toBe(1);
    expect(partials()).toEqual([]);
    const gone = await tusRequest("HEAD", location, { "x-api-key": account.key });
    expect(gone.status).toBe(404);
    expect(await usage()).toBe(usageBefore);
  });
});

describe("resumable uploads on an S3 deployment", { timeout: 120_000 }, () => {
  let s3: LocalS3;
  let onS3: TestServer;
  let owner: SeededAccount;

  beforeAll(async () => {
    s3 = await startLocalS3();
    onS3 = await startTestServer({
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    });
    owner = await seedAccount(onS3.ctx, { server: { allowedFileTypes: undefined } });
  }, 60_000);

  afterAll(async () => {
    await onS3?.close();
    await s3?.close();
  });

  it("keeps the partial on the instance and stores the completed file in the bucket", async () => {
    const body = await new Promise<{ id: FileId; file_size: number }>((resolve, reject) => {
      const upload = new tus.Upload(clip, {
        endpoint: `${onS3.url}/api/uploads/tus`,
        headers: { "x-api-key": owner.key },
        chunkSize: 700 * 1024,
        metadata: { filename: "radio-call.wav" },
        onSuccess: ({ lastResponse }) => resolve(JSON.parse(lastResponse.getBody())),
        onError: reject,
      });
      upload.start();
    });
    const row = await onS3.ctx.db.selectFrom("files").select(["storage_key", "size_bytes"]).where("id", "=", body.id).executeTakeFirstOrThrow();
    expect((await onS3.ctx.blobs.head(row.storage_key))?.size).toBe(Number(row.size_bytes));
    expect(onS3.ctx.blobs.kind).toBe("s3");
    expect(fs.readdirSync(tusDirectory(onS3.ctx.config))).toEqual([]);
  });
});
