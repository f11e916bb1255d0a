/**
 * Uploads over slow links: one that keeps moving is not cut by a fixed request deadline (Node's
 * default was 300 s), while a connection that stalls is closed by the idle timeout. The deadlines
 * are configuration, so the test runs them at seconds instead of minutes.
 */
import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { seedAccount } from "../helpers/api-seed.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { png, traceOf } from "../helpers/upload-fixtures.ts";

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function serverWith(env: Record<string, string>) {
  const server = await startTestServer(env);
  servers.push(server);
  return { server, account: await seedAccount(server.ctx) };
}

/** Sends `bytes` as a raw upload in `parts` pieces, `gapMs` apart (after `stallMs` of silence, if any). */
function dripUpload(server: TestServer, key: string, bytes: Buffer, options: { parts: number; gapMs: number; stallMs?: number }) {
  return new Promise<{ status: number | "closed"; ms: number }>((resolve) => {
    const started = Date.now();
    const req = http.request(new URL("/api/upload?category=slow", server.url), {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "image/png", "content-length": String(bytes.length), connection: "close" },
    });
    let done = false;
    const finish = (status: number | "closed") => {
      if (!done) resolve({ status, ms: Date.now() - started });
      done = true;
    };
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => finish(res.statusCode ?? 0));
    });
    req.on("error", () => finish("closed"));
    req.on("close", () => setTimeout(() => finish("closed"), 50));
    const size = Math.ceil(bytes.length / options.parts);
    let sent = 0;
    const next = () => {
      if (done || req.destroyed) return;
      const chunk = bytes.subarray(sent, sent + size);
      sent += chunk.length;
      if (sent >= bytes.length) req.end(chunk);
      else req.write(chunk, () => setTimeout(next, options.gapMs));
    };
    req.flushHeaders();
    setTimeout(next, options.stallMs ?? 0);
  });
}

describe("slow uploads", () => {
  it("an upload that keeps moving for longer than a short request deadline is stored under the default deadline", async () => {
    const image = await png(200, 200);
    const { server, account } = await serverWith({});
    const result = await dripUpload(server, account.key, image, { parts: 8, gapMs: 450 });
    expect(result.status).toBe(201);
    expect(result.ms).toBeGreaterThan(2500);
  });

  it("the request deadline applies when configured, and a cut upload leaves nothing behind", async () => {
    const image = await png(200, 200);
    const { server, account } = await serverWith({ REQUEST_TIMEOUT_S: "2" });
    const before = await traceOf(server, account);
    const result = await dripUpload(server, account.key, image, { parts: 8, gapMs: 450 });
    expect(result.status === "closed" || result.status === 408).toBe(true);
    expect(result.ms).toBeLessThan(4500);
    await new Promise((r) => setTimeout(r, 500));
    expect(await traceOf(server, account)).toEqual(before);
  });

  it("a connection that stalls is closed by the idle timeout", async () => {
    const image = await png(200, 200);
    const { server, account } = await serverWith({ IDLE_TIMEOUT_S: "1" });
    const result = await dripUpload(server, account.key, image, { parts: 2, gapMs: 0, stallMs: 4000 });
    expect(result.status).not.toBe(201);
    expect(result.ms).toBeLessThan(3500);
  });
});
