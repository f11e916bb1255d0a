import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
});
