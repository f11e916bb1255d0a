/**
 * Answers sent before the request body was read (bad key, wrong type, too large, bad body) must
 * leave a keep-alive client's connection usable: game servers reuse one connection, and a reset
 * after an error answer fails their next, unrelated request.
 */
import http from "node:http";
import type net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import type { TestServer } from "../helpers/server.ts";
import { png } from "../helpers/upload-fixtures.ts";
import type { ServerId } from "../../app/lib/ids.ts";

const KB = 1024;
const MB = 1024 * KB;
let server: TestServer;
let account: SeededAccount;
let agent: http.Agent;

test.beforeAll(async ({ server: started }) => {
  // The defaults: MAX_UPLOAD_MB 50 and a server allowing 50 MB files.
  server = started;
  account = await seedAccount(server.ctx);
});

afterEach(() => agent?.destroy());

interface Answer {
  status: number;
  json: Record<string, unknown>;
  connection: string | undefined;
  localPort: number;
  reused: boolean;
}

interface Send {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent with a Content-Length; `chunks` are sent chunked, without one. */
  body?: Buffer;
  chunks?: Buffer[];
}

/** One request through the shared keep-alive agent (one socket at most), answered in full. */
function send({ method = "POST", path, headers = {}, body, chunks }: Send): Promise<Answer> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: body ? { ...headers, "content-length": String(body.length) } : headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (chunk: Buffer) => parts.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8");
        resolve({
          status: res.statusCode ?? 0,
          json: text.startsWith("{") ? JSON.parse(text) : {},
          connection: res.headers.connection,
          localPort: req.socket!.localPort!,
          reused: req.reusedSocket,
        });
      });
    });
    // The server may stop reading a chunked body it refused; the answer is what counts here.
    req.on("error", (error) => (chunks ? undefined : reject(error)));
    if (chunks) {
      for (const chunk of chunks) req.write(chunk);
      req.end();
    } else {
      req.end(body);
    }
  });
}

function health(): Promise<Answer> {
  return send({ method: "GET", path: "/api/health" });
}

function multipart(parts: { name: string; filename?: string; type?: string; data: Buffer | string }[]) {
  const boundary = "----stash-keepalive";
  const pieces = parts.map((part) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ""}\r\n` +
          (part.type ? `Content-Type: ${part.type}\r\n` : "") +
          "\r\n",
      ),
      Buffer.from(part.data),
      Buffer.from("\r\n"),
    ]),
  );
  return { body: Buffer.concat([...pieces, Buffer.from(`--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

/** Bytes no type check accepts. */
const junk = (size: number) => Buffer.alloc(size, "z");
const BAD_KEY = `sk_${"x".repeat(40)}`;

async function filesOf(serverId: ServerId): Promise<number> {
  const rows = await server.ctx.db.selectFrom("files").select("id").where("server_id", "=", serverId).execute();
  return rows.length;
}

describe("an early answer to a small body keeps the connection", () => {
  const cases: [string, () => Promise<Send>, number, string][] = [
    [
      "401 bad key, 200 KB multipart",
      async () => {
        const form = multipart([{ name: "file", filename: "a.png", type: "image/png", data: Buffer.concat([await png(), junk(200 * KB)]) }]);
        return { path: "/api/upload", headers: { "content-type": form.type, "x-api-key": BAD_KEY }, body: form.body };
      },
      401,
      "invalid_api_key",
    ],
    [
      "401 bad key, 200 KB raw body",
      async () => ({ path: "/api/upload", headers: { "content-type": "image/png", Authorization: `Bearer ${BAD_KEY}` }, body: junk(200 * KB) }),
      401,
      "invalid_api_key",
    ],
    [
      "401 bad key on /api/upload/base64",
      async () => ({ path: "/api/upload/base64", headers: { "content-type": "application/json", "x-api-key": BAD_KEY }, body: Buffer.from(JSON.stringify({ file: junk(150 * KB).toString("base64") })) }),
      401,
      "invalid_api_key",
    ],
    [
      "415 wrong type, the rest of a 200 KB file unread",
      async () => {
        const form = multipart([{ name: "file", filename: "a.bin", data: junk(200 * KB) }]);
        return { path: "/api/upload", headers: { "content-type": form.type, "x-api-key": account.key }, body: form.body };
      },
      415,
      "unsupported_file_type",
    ],
    [
      "413 over a presigned URL's size, before reading",
      async () => {
        const grant = await send({ method: "GET", path: "/api/upload/presign?max_size_mb=0.1", headers: { "x-api-key": account.key } });
        return { method: "PUT", path: String(grant.json.upload_url), headers: { "content-type": "image/png" }, body: Buffer.concat([await png(), junk(300 * KB)]) };
      },
      413,
      "file_too_large",
    ],
    [
      "400 bad body: a field too long before a 200 KB file",
      async () => {
        const form = multipart([
          { name: "metadata", data: "x".repeat(70 * KB) },
          { name: "file", filename: "a.png", type: "image/png", data: Buffer.concat([await png(), junk(200 * KB)]) },
        ]);
        return { path: "/api/upload", headers: { "content-type": form.type, "x-api-key": account.key }, body: form.body };
      },
      400,
      "invalid_request",
    ],
    [
      "404 bad webhook secret, 200 KB attachment",
      async () => {
        const form = multipart([{ name: "files[0]", filename: "a.png", type: "image/png", data: Buffer.concat([await png(), junk(200 * KB)]) }]);
        return { path: `/api/webhooks/${account.serverId}/not-the-secret`, headers: { "content-type": form.type }, body: form.body };
      },
      404,
      "not_found",
    ],
    [
      "403 used-up presigned URL",
      async () => ({ method: "PUT", path: "/api/upload/presigned/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", headers: { "content-type": "image/png" }, body: junk(200 * KB) }),
      403,
      "invalid_upload_url",
    ],
  ];

  it.each(cases)("%s: the next request on the same socket gets its answer", async (_name, build, status, code) => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const request = await build();
    const before = await filesOf(account.serverId);
    // The request that opens the socket is the refused one when the case made no request first.
    const refused = await send(request);
    expect(refused.status).toBe(status);
    expect(refused.json.code).toBe(code);
    expect(refused.connection).toBe("keep-alive");

    const next = await health();
    expect(next.status).toBe(200);
    expect(next.reused).toBe(true);
    expect(next.localPort).toBe(refused.localPort);
    // And again: the connection is in step, not merely alive.
    const third = await health();
    expect(third.status).toBe(200);
    expect(third.localPort).toBe(refused.localPort);
    expect(await filesOf(account.serverId)).toBe(before);
  });
});

describe("a chunked body without Content-Length", () => {
  it("a refused one is answered with Connection: close, and the next request works on a new socket", async () => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const refused = await send({ path: "/api/upload", headers: { "content-type": "image/png", "x-api-key": BAD_KEY }, chunks: [await png(), junk(100 * KB), junk(100 * KB)] });
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("invalid_api_key");
    expect(refused.connection).toBe("close");
    const next = await health();
    expect(next.status).toBe(200);
    expect(next.reused).toBe(false);
  });

  it("an accepted one is stored and the connection is reused", async () => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const image = await png(20, 20);
    const stored = await send({ path: "/api/upload?category=screenshots", headers: { "content-type": "image/png", "x-api-key": account.key }, chunks: [image.subarray(0, 50), image.subarray(50)] });
    expect(stored.status).toBe(201);
    const next = await health();
    expect(next.status).toBe(200);
    expect(next.localPort).toBe(stored.localPort);
  });
});

describe("a body far over the limit (60 MB declared, 50 MB allowed)", () => {
  /**
   * Streams up to 60 MB as fast as the server takes it and stops at the answer or when the
   * connection ends; reports when the answer came and how much the server let through.
   */
  function streamHuge(headers: Record<string, string>): Promise<{ status: number; json: Record<string, unknown>; connection?: string; answeredAfterBytes: number; sentBytes: number; ms: number }> {
    const total = 60 * MB;
    const chunk = junk(64 * KB);
    const started = Date.now();
    return new Promise((resolve, reject) => {
      let sent = 0;
      let answer: { status: number; json: Record<string, unknown>; connection?: string; answeredAfterBytes: number; ms: number } | undefined;
      let socket: net.Socket | undefined;
      const req = http.request(new URL("/api/upload", server.url), { method: "POST", agent, headers: { ...headers, "content-length": String(total) } }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => {
          answer = { status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(parts).toString("utf8")), connection: res.headers.connection, answeredAfterBytes: sent, ms: Date.now() - started };
        });
      });
      req.on("socket", (s) => {
        socket = s;
        s.once("close", () => (answer ? resolve({ ...answer, sentBytes: socket!.bytesWritten }) : reject(new Error(`closed without an answer after ${sent} bytes`))));
      });
      req.on("error", () => undefined);
      sent += 8;
      req.write(Buffer.from("89504e470d0a1a0a", "hex"));
      const pump = () => {
        while (!answer && !req.destroyed && sent < total - chunk.length) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
      };
      pump();
    });
  }

  it("is answered 413 at once, read no further than a bounded linger, and the next request works", async () => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const before = await filesOf(account.serverId);
    const result = await streamHuge({ "content-type": "image/png", "x-api-key": account.key });
    expect(result.status).toBe(413);
    expect(result.json).toMatchObject({ success: false, code: "file_too_large", max_size_mb: 50 });
    expect(result.connection).toBe("close");
    expect(result.ms).toBeLessThan(5000);
    // Kernel buffers on both ends plus the 1 MB linger: far from the 60 MB declared.
    expect(result.sentBytes).toBeLessThan(20 * MB);

    const next = await health();
    expect(next.status).toBe(200);
    expect(next.reused).toBe(false);
    expect(await filesOf(account.serverId)).toBe(before);
  });

  it("with a bad key as well: 401, and the connection is closed rather than drained", async () => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const result = await streamHuge({ "content-type": "image/png", "x-api-key": BAD_KEY });
    expect(result.status).toBe(401);
    expect(result.connection).toBe("close");
    expect(result.sentBytes).toBeLessThan(20 * MB);
    expect((await health()).status).toBe(200);
  });
});
