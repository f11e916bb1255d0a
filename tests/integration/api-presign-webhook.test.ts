import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { expectApiResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { form, jpeg, pdf, png, traceOf } from "../helpers/upload-fixtures.ts";

let server: TestServer;
let account: SeededAccount;

test.beforeAll(async ({ server: started }) => {
  server = started;
  account = await seedAccount(server.ctx);
});

async function presign(query = "", init: RequestInit = {}, who = account) {
  const res = await server.request(`/api/upload/presign${query}`, { ...init, headers: { "x-api-key": who.key, ...init.headers } });
  return { res, body: await expectApiResponse(res, init.method ?? "get", "/api/upload/presign") };
}

function localUrl(url: string) {
  return url.replace(/^https?:\/\/[^/]+/, "");
}

describe("presigned uploads", () => {
  it("hand out a single-use URL in url, presignedUrl and data.presignedUrl that takes one POST with no key", async () => {
    const { res, body } = await presign("?expires_in=120&category=Phone%20Videos&player_identifier=license:xyz");
    expect(res.status).toBe(200);
    expect(body.url).toMatch(/\/api\/upload\/presigned\/[0-9A-Za-z]{43}$/);
    expect(body.presignedUrl).toBe(body.url);
    expect(body.data.presignedUrl).toBe(body.url);
    expect(body.expires_in).toBe(120);
    expect(new Date(body.expires_at).getTime()).toBeGreaterThan(Date.now() + 100_000);

    const image = await png();
    const first = await server.request(localUrl(body.url), {
      method: "POST",
      body: form([{ field: "category", data: "ignored" }, { field: "player_name", data: "Lamar" }, { field: "file", data: image, filename: "clip.png" }]),
    });
    const uploaded = await expectApiResponse(first, "post", "/api/upload/presigned/{token}");
    expect(first.status).toBe(201);
    expect(uploaded).toMatchObject({ category: "phone_videos", player_identifier: "license:xyz", player_name: "Lamar", file_size: image.length });

    const again = await server.request(localUrl(body.url), { method: "POST", body: form([{ field: "file", data: image, filename: "clip.png" }]) });
    expect(again.status).toBe(403);
    expect((await expectApiResponse(again, "post", "/api/upload/presigned/{token}")).code).toBe("invalid_upload_url");
  });

  it("take one PUT of raw bytes", async () => {
    const { body } = await presign("", { method: "POST", body: JSON.stringify({ expires_in: 60 }), headers: { "content-type": "application/json" } });
    const image = await jpeg();
    const res = await server.request(localUrl(body.url), { method: "PUT", body: new Uint8Array(image), headers: { "content-type": "image/jpeg" } });
    const uploaded = await expectApiResponse(res, "put", "/api/upload/presigned/{token}");
    expect(res.status).toBe(201);
    expect(uploaded.mime_type).toBe("image/jpeg");
  });

  it("refuse expired URLs, and stay usable after a refused upload", async () => {
    const { body } = await presign("?expires_in=1");
    await server.ctx.db.updateTable("upload_grants").set({ expires_at: new Date(Date.now() - 1000) }).execute();
    const expired = await server.request(localUrl(body.url), { method: "POST", body: form([{ field: "file", data: await png(), filename: "a.png" }]) });
    expect(expired.status).toBe(403);

    const bound = await presign("?max_size_mb=0.01");
    const before = await traceOf(server, account);
    const tooBig = await server.request(localUrl(bound.body.url), { method: "POST", body: form([{ field: "file", data: pdf(20_000), filename: "a.pdf" }]) });
    expect(tooBig.status).toBe(413);
    await expectApiResponse(tooBig, "post", "/api/upload/presigned/{token}");
    expect(await traceOf(server, account)).toEqual(before);
    const retry = await server.request(localUrl(bound.body.url), { method: "POST", body: form([{ field: "file", data: pdf(2_000), filename: "a.pdf" }]) });
    expect(retry.status).toBe(201);
  });

  it("validate their options and need a key with upload", async () => {
    for (const query of ["?expires_in=3601", "?expires_in=-5", "?expires_in=abc", "?max_size_mb=0"]) {
      const { res, body } = await presign(query);
      expect(res.status, query).toBe(400);
      expect(body.code).toBe("invalid_request");
    }
    expect((await presign("?expires_in=3600")).res.status).toBe(200);
    const readOnly = await seedAccount(server.ctx, { permissions: ["read"] });
    expect((await presign("", {}, readOnly)).res.status).toBe(403);
    const res = await server.request("/api/upload/presign");
    expect(res.status).toBe(401);
  });
});

describe("presigned uploads with the CDN on its own host", () => {
  it("point at the API host (APP_URL), which takes uploads; the stored file's URL is on CDN_BASE_URL", async () => {
    const split = await startTestServer({ CDN_BASE_URL: "https://cdn.stash.test" });
    try {
      const owner = await seedAccount(split.ctx);
      const presigned = await split.request("/api/upload/presign", { headers: { "x-api-key": owner.key } });
      const { url } = await expectApiResponse(presigned, "get", "/api/upload/presign");
      expect(url.slice(0, url.lastIndexOf("/"))).toBe(`${split.ctx.config.appUrl}/api/upload/presigned`);
      expect(url.slice(url.lastIndexOf("/") + 1)).toMatch(/^[0-9A-Za-z]{43}$/);

      const res = await fetch(url, { method: "POST", body: form([{ field: "file", data: await png(), filename: "shot.png" }]) });
      const uploaded = await expectApiResponse(res, "post", "/api/upload/presigned/{token}");
      expect(res.status).toBe(201);
      expect(uploaded.url).toBe(`https://cdn.stash.test/f/${owner.serverId}/other/${uploaded.filename}`);
    } finally {
      await split.close();
    }
  });
});

describe("Discord-compatible webhook", () => {
  const hook = (who = account, query = "") => `/api/webhooks/${who.serverId}/${who.webhookSecret}${query}`;

  it("stores files[n] with payload_json and answers a Discord-shaped message", async () => {
    const a = await png(12, 9);
    const b = await jpeg();
    const fd = form([
      { field: "payload_json", data: JSON.stringify({ content: "Evidence #42", username: "MDT", embeds: [{ title: "Case" }] }) },
      { field: "files[0]", data: a, filename: "mugshot.png" },
      { field: "files[1]", data: b, filename: "scene.jpg" },
    ]);
    const res = await server.request(hook(account, "?wait=true"), { method: "POST", body: fd });
    const message = await expectApiResponse(res, "post", "/api/webhooks/{server_id}/{secret}");
    expect(res.status).toBe(200);
    expect(message).toMatchObject({ content: "Evidence #42", author: { username: "MDT" }, embeds: [{ title: "Case" }] });
    expect(message.attachments).toHaveLength(2);
    expect(message.attachments[0]).toMatchObject({ size: a.length, content_type: "image/png" });
    expect(message.attachments[0].url).toContain(`/f/${account.serverId}/webhook/`);
    expect(message.attachments[0].proxy_url).toBe(message.attachments[0].url);
    const row = await server.ctx.db.selectFrom("files").selectAll().where("id", "=", message.attachments[0].id).executeTakeFirstOrThrow();
    expect(row.metadata).toMatchObject({ source: "discord_webhook", content: "Evidence #42", username: "MDT" });
  });

  it("accepts file, file0 and files[] without wait, and plain JSON messages", async () => {
    for (const field of ["file", "file0", "files[]"]) {
      const res = await server.request(hook(), { method: "POST", body: form([{ field, data: await png(), filename: "x.png" }]) });
      const message = await expectApiResponse(res, "post", "/api/webhooks/{server_id}/{secret}");
      expect(res.status, field).toBe(200);
      expect(message.attachments).toHaveLength(1);
    }
    // A message without files answers like Discord: 204 without ?wait=true, the message with it.
    const quiet = await server.request(hook(), { method: "POST", body: JSON.stringify({ content: "Server restarted" }), headers: { "content-type": "application/json" } });
    expect(quiet.status).toBe(204);
    const res = await server.request(hook(account, "?wait=true"), { method: "POST", body: JSON.stringify({ content: "Server restarted" }), headers: { "content-type": "application/json" } });
    const message = await expectApiResponse(res, "post", "/api/webhooks/{server_id}/{secret}");
    expect(message).toMatchObject({ content: "Server restarted", attachments: [] });
  });

  it("answers 404 for a wrong secret and 415 for a disallowed type, storing nothing", async () => {
    const before = await traceOf(server, account);
    const wrong = await server.request(`/api/webhooks/${account.serverId}/wrongsecret`, { method: "POST", body: form([{ field: "file", data: await png(), filename: "x.png" }]) });
    expect(wrong.status).toBe(404);
    await expectApiResponse(wrong, "post", "/api/webhooks/{server_id}/{secret}");
    const html = await server.request(hook(), { method: "POST", body: form([{ field: "file", data: "<svg onload=alert(1)>", filename: "x.png" }]) });
    expect(html.status).toBe(415);
    await expectApiResponse(html, "post", "/api/webhooks/{server_id}/{secret}");
    const badPayload = await server.request(hook(), { method: "POST", body: form([{ field: "payload_json", data: "{nope" }, { field: "file", data: await png(), filename: "x.png" }]) });
    expect(badPayload.status).toBe(400);
    expect(await traceOf(server, account)).toEqual(before);
  });
});

describe("DELETE /api/files/{id}", () => {
  it("deletes the row, the blob and the variants and releases the quota (key with delete)", async () => {
    const owner = await seedAccount(server.ctx, { permissions: ["upload", "read", "delete"] });
    const empty = await traceOf(server, owner);
    const image = await png();
    const up = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": owner.key }, body: form([{ field: "file", data: image, filename: "a.png" }]) });
    const file = await expectApiResponse(up, "post", "/api/upload");
    await server.ctx.blobs.put(`${file.path}.variants/thumb.webp`, Readable.from([Buffer.from("variant")]));
    await server.ctx.db
      .insertInto("file_variants")
      .values({ file_id: file.id, variant: "thumb.webp", storage_key: `${file.path}.variants/thumb.webp`, mime_type: "image/webp", size_bytes: 7 })
      .execute();

    const limited = await seedAccount(server.ctx);
    const denied = await server.request(`/api/files/${file.id}`, { method: "DELETE", headers: { "x-api-key": limited.key } });
    expect(denied.status).toBe(403);
    await expectApiResponse(denied, "delete", "/api/files/{id}");

    const res = await server.request(`/api/files/${file.id}`, { method: "DELETE", headers: { "x-api-key": owner.key } });
    const body = await expectApiResponse(res, "delete", "/api/files/{id}");
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ deleted: true, id: file.id, freed_bytes: image.length });
    const after = await traceOf(server, owner);
    expect(after).toMatchObject({ rows: 0, blobs: [], usedBytes: empty.usedBytes, serverUsedBytes: 0 });

    const gone = await server.request(`/api/files/${file.id}`, { method: "DELETE", headers: { "x-api-key": owner.key } });
    expect(gone.status).toBe(404);
    await expectApiResponse(gone, "delete", "/api/files/{id}");
    const other = await server.request(`/api/files/not-a-uuid`, { method: "DELETE", headers: { "x-api-key": owner.key } });
    expect(other.status).toBe(404);
  });

  it("cannot delete another server's file", async () => {
    const up = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": account.key }, body: form([{ field: "file", data: await png(), filename: "a.png" }]) });
    const file = await up.json();
    const stranger = await seedAccount(server.ctx, { permissions: ["delete"] });
    const res = await server.request(`/api/files/${file.id}`, { method: "DELETE", headers: { "x-api-key": stranger.key } });
    expect(res.status).toBe(404);
    expect(await server.ctx.db.selectFrom("files").select("id").where("id", "=", file.id).executeTakeFirst()).toBeDefined();
  });
});
