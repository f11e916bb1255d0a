import { describe, expect, it } from "vitest";
import type { FileRecord } from "../../db/schema.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { filePath, seedFile } from "../helpers/files.ts";
import { expectApiResponse } from "../helpers/openapi.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";

let server: TestServer;
let owner: SeededAccount;
let stranger: SeededAccount;
let open: FileRecord;
let hidden: FileRecord;
const bytes = Buffer.from("evidence #1138: ".repeat(64));

const asOwner = (key = owner.key) => ({ userId: owner.userId, teamId: owner.teamId, serverId: owner.serverId, key });

test.beforeAll(async ({ server: started }) => {
  server = started;
  owner = await seedAccount(server.ctx);
  stranger = await seedAccount(server.ctx);
  open = await seedFile(server, asOwner(), { bytes, mimeType: "text/plain", extension: "txt", originalFilename: "Beweis – Fall 7.txt" });
  hidden = await seedFile(server, asOwner(), { bytes: Buffer.from("private body"), mimeType: "text/plain", extension: "txt", isPublic: false });
});

const byPath = (file: FileRecord) => `/api/download?file=${file.server_id}/${file.category}/${file.filename}`;
const byId = (file: FileRecord) => `/api/download/${file.id}`;

describe.each([
  ["/api/download?file=", byPath],
  ["/api/download/{id}", byId],
])("%s", (_name, url) => {
  it("serves a public file without a key, as an attachment under its original name", async () => {
    const res = await server.request(url(open));
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="Beweis _ Fall 7.txt"; filename*=UTF-8''Beweis%20%E2%80%93%20Fall%207.txt`);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.headers.get("etag")).toBe(`"${open.sha256}"`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("sandbox");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers HEAD, Range (206/416) and If-None-Match (304)", async () => {
    const head = await server.request(url(open), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(bytes.length));
    expect(await head.text()).toBe("");

    const part = await server.request(url(open), { headers: { Range: "bytes=0-7" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-7/${bytes.length}`);
    expect(await part.text()).toBe("evidence");

    const beyond = await server.request(url(open), { headers: { Range: "bytes=999999-" } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
    expect(await beyond.json()).toMatchObject({ success: false, code: "range_not_satisfiable" });

    const fresh = await server.request(url(open), { headers: { "If-None-Match": `"${open.sha256}"` } });
    expect(fresh.status).toBe(304);
  });

  it("answers a private file with 404 without a key or with another server's key, and serves it with its own", async () => {
    const anonymous = await server.request(url(hidden));
    expect(anonymous.status).toBe(404);
    expect(await anonymous.json()).toMatchObject({ success: false, code: "not_found" });
    const foreign = await server.request(url(hidden), { headers: { "x-api-key": stranger.key } });
    expect(foreign.status).toBe(404);
    const bogus = await server.request(url(hidden), { headers: { Authorization: "Bearer sk_nope" } });
    expect(bogus.status).toBe(404);
    const keyed = await server.request(url(hidden), { headers: { Authorization: `Bearer ${owner.key}` } });
    expect(keyed.status).toBe(200);
    expect(await keyed.text()).toBe("private body");
    expect(keyed.headers.get("cache-control")).toBe("private, no-cache");
    const inQuery = await server.request(`${url(hidden)}${url(hidden).includes("?") ? "&" : "?"}apiKey=${owner.key}`);
    expect(await inQuery.text()).toBe("private body");
  });
});

describe("audit of key-authenticated reads", () => {
  it("writes an audit row and counts an API call when a key opens a private file, and nothing for refused keys", async () => {
    const audits = () =>
      server.ctx.db.selectFrom("audit_logs").select(["action", "api_key_id", "server_id"]).where("action", "=", "file.read").orderBy("id").execute();
    const apiCalls = async () =>
      Number(
        (await server.ctx.db.selectFrom("usage_daily").select("api_calls").where("server_id", "=", owner.serverId).executeTakeFirst())?.api_calls ?? 0,
      );
    await server.flushUsage();
    const beforeAudits = (await audits()).length;
    const beforeCalls = await apiCalls();
    expect((await server.request(byId(hidden), { headers: { "x-api-key": stranger.key } })).status).toBe(404);
    await server.flushUsage();
    expect(await audits()).toHaveLength(beforeAudits);
    const res = await server.request(byId(hidden), { headers: { "x-api-key": owner.key } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    // Call records are written once a second; flushUsage writes them now.
    await server.flushUsage();
    const rows = await audits();
    expect(rows).toHaveLength(beforeAudits + 1);
    expect(rows.at(-1)).toEqual({ action: "file.read", api_key_id: owner.keyId, server_id: owner.serverId });
    expect(await apiCalls()).toBe(beforeCalls + 1);
  });
});

describe("download requests that cannot be answered", () => {
  it("refuses a malformed file reference with 400 and an unknown one with 404", async () => {
    const bad = await server.request("/api/download?file=../../etc/passwd");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ success: false, code: "invalid_request" });
    const missing = await server.request(`/api/download?file=${owner.serverId}/screenshots/nothing.png`);
    expect(missing.status).toBe(404);
    for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const res = await server.request(`/api/download/${id}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: "not_found" });
    }
  });

  it("accepts the full /f/ URL as the file reference", async () => {
    const res = await server.request(`/api/download?file=${encodeURIComponent(`${server.url}${filePath(open)}`)}`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});

describe("private files on /f/", () => {
  it("serves them with a key of their server only", async () => {
    expect((await server.request(filePath(hidden))).status).toBe(404);
    expect((await server.request(filePath(hidden), { headers: { "x-api-key": stranger.key } })).status).toBe(404);
    const res = await server.request(filePath(hidden), { headers: { "x-api-key": owner.key } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("private body");
  });
});

describe("GET /api/files/{id}", () => {
  it("describes a file to a read key of its server", async () => {
    const res = await server.request(`/api/files/${open.id}`, { headers: { "x-api-key": owner.key } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      status: "ok",
      error: false,
      id: open.id,
      filename: open.filename,
      original_filename: "Beweis – Fall 7.txt",
      mime_type: "text/plain",
      file_size: bytes.length,
      is_public: true,
      url: `${server.url}${filePath(open)}`,
      thumbnail_url: null,
      download_url: `${server.url}/api/download/${open.id}`,
    });
    expect(body.data.id).toBe(open.id);
  });

  // Public means the bytes at an unguessable URL, never the record (player identifiers, case notes).
  it("answers a public file's record to no key and to another server's key exactly as a missing file", async () => {
    await server.ctx.db
      .updateTable("files")
      .set({ player_identifier: "license:4f1c2a", metadata: JSON.stringify({ case: "LSPD-2291" }) })
      .where("id", "=", open.id)
      .execute();
    const missing = await server.request("/api/files/00000000-0000-4000-8000-000000000000", { headers: { "x-api-key": owner.key } });
    const missingBody = await missing.json();
    const attempts: Record<string, string>[] = [{}, { "x-api-key": stranger.key }, { "x-api-key": "sk_not_a_real_key_at_all_000000000000" }];
    for (const headers of attempts) {
      const res = await server.request(`/api/files/${open.id}`, { headers });
      expect(res.status).toBe(404);
      const text = await res.text();
      expect(text).not.toContain("license:4f1c2a");
      expect(text).not.toContain("LSPD-2291");
      expect(JSON.parse(text)).toEqual(missingBody);
    }
    // The bytes stay public.
    expect((await server.request(filePath(open))).status).toBe(200);
  });

  it("answers 404 for a private file without its server's key", async () => {
    expect((await server.request(`/api/files/${hidden.id}`)).status).toBe(404);
    expect((await server.request(`/api/files/${hidden.id}`, { headers: { "x-api-key": stranger.key } })).status).toBe(404);
    const keyed = await server.request(`/api/files/${hidden.id}`, { headers: { "x-api-key": owner.key } });
    expect(keyed.status).toBe(200);
    expect((await keyed.json()).is_public).toBe(false);
  });
});

describe("signed URLs of private files", () => {
  const sign = (file: FileRecord, key: string, query = "") =>
    server.request(`/api/files/${file.id}/signed-url${query}`, { headers: { "x-api-key": key } });
  const local = (url: string) => {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  };

  it("opens a private file without a key until it expires, for GETs and ranges", async () => {
    const res = await sign(hidden, owner.key, "?expires_in=120");
    expect(res.status).toBe(200);
    const body = await expectApiResponse(res, "get", "/api/files/{id}/signed-url");
    expect(body.url).toMatch(new RegExp(`^${server.url}${filePath(hidden)}\\?expires=\\d+&sig=[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(body.expires_at) - Date.now()).toBeGreaterThan(100_000);
    expect(body.expires_in).toBe(120);

    const served = await server.request(local(body.url));
    expect(served.status).toBe(200);
    expect(await served.text()).toBe("private body");
    expect(served.headers.get("cache-control")).toMatch(/private/);
    const ranged = await server.request(local(body.url), { headers: { Range: "bytes=0-6" } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe("private");
    // Without the signature the file is still missing.
    expect((await server.request(filePath(hidden))).status).toBe(404);
  });

  it("refuses expired, tampered and other files' signatures like a missing file", async () => {
    const { url } = await (await sign(hidden, owner.key)).json();
    const u = new URL(url);
    const expires = Number(u.searchParams.get("expires"));
    const sig = u.searchParams.get("sig")!;
    const other = await seedFile(server, asOwner(), { bytes: Buffer.from("another private body"), mimeType: "text/plain", extension: "txt", isPublic: false });
    const tampered = `${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}`;
    for (const attempt of [
      `${filePath(hidden)}?expires=${expires + 60}&sig=${sig}`,
      `${filePath(hidden)}?expires=${expires}&sig=${tampered}`,
      `${filePath(other)}?expires=${expires}&sig=${sig}`,
      `${filePath(hidden)}?expires=${Math.floor(Date.now() / 1000) - 10}&sig=${sig}`,
    ]) {
      const res = await server.request(attempt);
      expect(res.status, attempt).toBe(404);
      expect(await res.json()).toMatchObject({ code: "not_found" });
    }
  });

  it("stops working once it expires", async () => {
    const { url } = await (await sign(hidden, owner.key, "?expires_in=60")).json();
    // A signature made for a moment already past, with the server's own secret, is refused.
    const { fileUrlSignature } = await import("../../app/services/files/private-access.server.ts");
    const server_ = await server.ctx.db.selectFrom("servers").select("webhook_secret").where("id", "=", owner.serverId).executeTakeFirstOrThrow();
    const past = Math.floor(Date.now() / 1000) - 1;
    const expired = `${filePath(hidden)}?expires=${past}&sig=${fileUrlSignature(server_.webhook_secret, hidden, past)}`;
    expect((await server.request(expired)).status).toBe(404);
    expect((await server.request(local(url))).status).toBe(200);
  });

  it("is only made for a read key of the file's server, for a bounded life", async () => {
    expect((await sign(hidden, stranger.key)).status).toBe(404);
    expect((await server.request(`/api/files/${hidden.id}/signed-url`)).status).toBe(401);
    for (const query of ["?expires_in=5", "?expires_in=999999999", "?expires_in=soon"]) {
      const res = await sign(hidden, owner.key, query);
      expect(res.status).toBe(400);
      expect(await expectApiResponse(res, "get", "/api/files/{id}/signed-url")).toMatchObject({ code: "invalid_request", min_expires_in: 60, max_expires_in: 604800 });
    }
  });
});

describe("deleting through the API", () => {
  it("stops /f/ serving the file at once on this instance", async () => {
    const deleter = await seedAccount(server.ctx, { permissions: ["upload", "read", "delete"] });
    const file = await seedFile(server, deleter, { bytes: Buffer.from("short-lived"), mimeType: "text/plain", extension: "txt" });
    expect(await (await server.request(filePath(file))).text()).toBe("short-lived");
    const res = await server.request(`/api/files/${file.id}`, { method: "DELETE", headers: { "x-api-key": deleter.key } });
    expect(res.status).toBe(200);
    expect((await server.request(filePath(file))).status).toBe(404);
  });
});
