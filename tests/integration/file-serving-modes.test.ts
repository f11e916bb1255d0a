import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShare } from "../../app/services/files/file-shares.server.ts";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { createSessionCookie } from "../helpers/auth.ts";
import { filePath, seedFile, seedOwner } from "../helpers/files.ts";
import { gameScreenshot } from "../helpers/images.ts";
import { startLocalS3, type LocalS3 } from "../helpers/s3rver.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s3: LocalS3;

beforeAll(async () => {
  s3 = await startLocalS3();
});

afterAll(async () => {
  await s3?.close();
});

function s3Env(serve: "proxy" | "redirect") {
  return {
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: "true",
    S3_SERVE: serve,
  };
}

describe("/f/ on S3, proxy mode", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(s3Env("proxy"));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("streams the bytes with ranges, validators and the file headers", async () => {
    const owner = await seedOwner(server);
    const bytes = Buffer.from("S3 served bytes ".repeat(100));
    const file = await seedFile(server, owner, { bytes, mimeType: "text/plain", extension: "txt" });
    const full = await server.request(filePath(file));
    expect(full.status).toBe(200);
    expect(full.headers.get("content-security-policy")).toBe("sandbox");
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await server.request(filePath(file), { headers: { Range: "bytes=3-8" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 3-8/${bytes.length}`);
    expect(await part.text()).toBe("served");
    const cached = await server.request(filePath(file), { headers: { "If-None-Match": `"${file.sha256}"` } });
    expect(cached.status).toBe(304);
  });

  it("makes and serves image variants from S3", async () => {
    const owner = await seedOwner(server);
    const file = await seedFile(server, owner, { bytes: await gameScreenshot(800, 450, 9), mimeType: "image/png", extension: "png" });
    const res = await server.request(`${filePath(file)}?w=200&format=webp`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });
});

describe("/f/ on S3, redirect mode", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(s3Env("redirect"));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("redirects to a short-lived presigned URL that serves the bytes", async () => {
    const owner = await seedOwner(server);
    const bytes = Buffer.from("presigned bytes");
    const file = await seedFile(server, owner, { bytes, mimeType: "text/plain", extension: "txt" });
    const res = await server.request(filePath(file), { redirect: "manual" });
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location).toContain(s3.endpoint);
    expect(location).toMatch(/X-Amz-Expires=600/);
    expect(res.headers.get("cache-control")).toBe("private, max-age=300");
    const followed = await fetch(location);
    expect(followed.status).toBe(200);
    expect(await followed.text()).toBe("presigned bytes");
  });
});

describe("/f/ with X-Accel-Redirect", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ACCEL_REDIRECT_PREFIX: "/protected-files/" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("authorises and sets headers, leaving the bytes to nginx", async () => {
    const owner = await seedOwner(server);
    const file = await seedFile(server, owner, { bytes: Buffer.from("for nginx"), mimeType: "text/plain", extension: "txt" });
    const res = await server.request(filePath(file));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-accel-redirect")).toBe(`/protected-files/${file.storage_key}`);
    expect(res.headers.get("etag")).toBe(`"${file.sha256}"`);
    expect(res.headers.get("content-type")).toBe("text/plain");
    expect(res.headers.get("content-security-policy")).toBe("sandbox");
    expect(await res.text()).toBe("");
    const missing = await server.request(`/f/${owner.serverId}/screenshots/${"a".repeat(16)}.txt`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-accel-redirect")).toBeNull();
  });

  it("hands nginx the bytes of share links, downloads and portal media after deciding access, ranges and headers", async () => {
    const owner = await seedOwner(server);
    const bytes = Buffer.from("private evidence for nginx");
    const file = await seedFile(server, owner, { bytes, mimeType: "text/plain", extension: "txt", isPublic: false, originalFilename: "evidence.txt" });
    const accel = `/protected-files/${file.storage_key}`;
    const { secret } = await createApiKey(server.ctx.db, { serverId: owner.serverId, teamId: owner.teamId, name: "read", permissions: ["read"] });
    const session = await createSessionCookie(server.ctx, owner.userId);
    const token = await createShare(server.ctx.db, owner.teamId, file.id, { expiresInHours: null, password: null, maxViews: null });

    const answers = {
      share: await server.request(`/s/${token}/raw`, { headers: { Range: "bytes=0-6" } }),
      downloadById: await server.request(`/api/download/${file.id}`, { headers: { "x-api-key": secret } }),
      download: await server.request(`/api/download?file=${encodeURIComponent(file.storage_key)}`, { headers: { "x-api-key": secret } }),
      media: await server.request(`/api/media/${file.id}?download=1`, { headers: { Cookie: session.cookie } }),
    };
    for (const [route, res] of Object.entries(answers)) {
      expect({ route, status: res.status, accel: res.headers.get("x-accel-redirect") }).toEqual({ route, status: 200, accel });
      expect(res.headers.get("etag")).toBe(`"${file.sha256}"`);
      expect(res.headers.get("content-length") ?? "0").toBe("0");
      expect(res.headers.get("content-range")).toBeNull();
      expect(await res.text()).toBe("");
    }
    expect(answers.share.headers.get("cache-control")).toBe("private, no-store");
    expect(answers.download.headers.get("content-disposition")).toContain('filename="evidence.txt"');

    // Stash still answers what it decides: no access, a revalidation, an unsatisfiable range.
    const stranger = await server.request(`/api/download/${file.id}`);
    expect(stranger.status).toBe(404);
    expect(stranger.headers.get("x-accel-redirect")).toBeNull();
    const revalidated = await server.request(`/s/${token}/raw`, { headers: { "If-None-Match": `"${file.sha256}"` } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("x-accel-redirect")).toBeNull();
    const beyond = await server.request(`/api/download/${file.id}`, { headers: { "x-api-key": secret, Range: "bytes=999-" } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("x-accel-redirect")).toBeNull();
  });
});
