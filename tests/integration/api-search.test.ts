import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { sql } from "kysely";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { parseSearchParams, searchFiles } from "../../app/services/files/search.server.ts";
import { expectApiResponse } from "../helpers/openapi.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, png } from "../helpers/upload-fixtures.ts";

let server: TestServer;
let account: SeededAccount;
const ids: string[] = [];

test.beforeAll(async ({ server: started }) => {
  server = started;
  account = await seedAccount(server.ctx);
  const uploads = [
    { category: "phone_photos", player_name: "Niko Bellic", player_identifier: "license:niko", metadata: { case: 1 }, filename: "Beach Sunset.png" },
    { category: "phone_photos", player_name: "Roman Bellic", player_identifier: "license:roman", metadata: { case: 2 }, filename: "cab.png" },
    { category: "police_evidence", player_name: "Niko Bellic", player_identifier: "license:niko", metadata: { case: 1, officer: "Ortiz" }, filename: "knife_100%.png" },
  ];
  for (const [i, u] of uploads.entries()) {
    const res = await server.request("/api/upload", {
      method: "POST",
      headers: { "x-api-key": account.key },
      body: form([
        { field: "category", data: u.category },
        { field: "player_name", data: u.player_name },
        { field: "player_identifier", data: u.player_identifier },
        { field: "metadata", data: JSON.stringify(u.metadata) },
        { field: "file", data: await png(3 + i, 3), filename: u.filename },
      ]),
    });
    const body = await res.json();
    ids.push(body.id);
    // Distinct, known upload times for the date filters and the sort.
    await server.ctx.db.updateTable("files").set({ created_at: new Date(Date.UTC(2026, 0, 10 + i, 12)) }).where("id", "=", body.id).execute();
  }
  const other = await seedAccount(server.ctx);
  await server.request("/api/upload", { method: "POST", headers: { "x-api-key": other.key }, body: form([{ field: "file", data: await png(), filename: "Beach Sunset.png" }]) });
});

async function search(query: string) {
  const res = await server.request(`/api/search${query}`, { headers: { "x-api-key": account.key } });
  return { res, body: await expectApiResponse(res, "get", "/api/search") };
}

const found = (body: { files: { id: string }[] }) => body.files.map((f) => ids.indexOf(f.id));

describe("GET /api/search", () => {
  it("lists only the key's server's files, newest first, with offset paging by default", async () => {
    const { res, body } = await search("");
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ success: true, total: 3, limit: 50, offset: 0, page: 1 });
    expect(found(body)).toEqual([2, 1, 0]);
  });

  it("filters by category, player, identifier, filename substring, dates and metadata", async () => {
    expect(found((await search("?category=phone_photos")).body)).toEqual([1, 0]);
    expect(found((await search("?player_name=bellic")).body)).toEqual([2, 1, 0]);
    expect(found((await search("?player_name=NIKO")).body)).toEqual([2, 0]);
    expect(found((await search("?player_identifier=license:roman")).body)).toEqual([1]);
    expect(found((await search("?filename=sunset")).body)).toEqual([0]);
    expect(found((await search("?filename=100%25")).body)).toEqual([2]);
    expect(found((await search("?filename=_")).body)).toEqual([2]);
    expect(found((await search("?from_date=2026-01-11&to_date=2026-01-11")).body)).toEqual([1]);
    expect(found((await search("?from_date=2026-01-11T00:00:00Z")).body)).toEqual([2, 1]);
    expect(found((await search(`?metadata=${encodeURIComponent(JSON.stringify({ case: 1 }))}`)).body)).toEqual([2, 0]);
    expect(found((await search(`?metadata=${encodeURIComponent(JSON.stringify({ officer: "Ortiz" }))}&category=police_evidence`)).body)).toEqual([2]);
  });

  it("sorts ascending and pages by limit+offset or page+limit (default 20), capped at 100", async () => {
    expect(found((await search("?sort=asc")).body)).toEqual([0, 1, 2]);
    const offset = await search("?limit=2&offset=1");
    expect(offset.body).toMatchObject({ total: 3, limit: 2, offset: 1, page: 1, has_more: false });
    expect(found(offset.body)).toEqual([1, 0]);
    const page = await search("?page=2&limit=2");
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 2, page: 2 });
    expect(found(page.body)).toEqual([0]);
    expect((await search("?page=1")).body.limit).toBe(20);
    expect((await search("?limit=1000")).body.limit).toBe(100);
  });

  it("answers 400 for bad parameters", async () => {
    for (const query of ["?limit=0", "?limit=abc", "?offset=-1", "?page=0", "?sort=sideways", "?from_date=yesterday", "?metadata=%5B1%5D", "?metadata=%7Bbad", "?from_date=2026-02-01&to_date=2026-01-01"]) {
      const { res, body } = await search(query);
      expect(res.status, query).toBe(400);
      expect(body.code).toBe("invalid_request");
    }
  });
});

describe("GET /api/openapi.json", () => {
  it("describes every script API path, the file paths included", async () => {
    const res = await server.request("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/upload",
        "/api/upload/base64",
        "/api/upload/presign",
        "/api/upload/presigned/{token}",
        "/api/search",
        "/api/files/{id}",
        "/api/files/{id}/signed-url",
        "/api/download",
        "/api/download/{id}",
        "/f/{server_id}/{category}/{filename}",
        "/api/webhooks/{server_id}/{secret}",
      ]),
    );
    expect(doc.servers[0].url).toBe(server.url.replace("localhost", "127.0.0.1"));
  });
});

describe("totals on busy servers", () => {
  it("counts up to 10,000 matches, says when more match, and keeps has_more exact past the cap", async () => {
    const busy = await seedAccount(server.ctx);
    // 10,050 rows in one statement: a busy server's files, without 10,050 uploads.
    await sql`
      INSERT INTO files (server_id, team_id, storage_key, filename, original_filename, category, mime_type, size_bytes, sha256, is_public, created_at)
      SELECT ${busy.serverId}, ${busy.teamId}::uuid, ${busy.serverId} || '/bulk/' || n || '.png', n || '.png', n || '.png',
             CASE WHEN n % 2 = 0 THEN 'even' ELSE 'odd' END, 'image/png', 1, repeat('0', 64), true,
             timestamptz '2026-06-01T00:00:00Z' - n * interval '1 second'
      FROM generate_series(1, 10050) AS n`.execute(server.ctx.db);
    const get = async (query: string) => {
      const res = await server.request(`/api/search${query}`, { headers: { "x-api-key": busy.key } });
      return expectApiResponse(res, "get", "/api/search");
    };

    expect(await get("?limit=10")).toMatchObject({ total: 10_000, total_capped: true, has_more: true });
    expect(await get("?category=even&limit=10")).toMatchObject({ total: 5025, total_capped: false, has_more: true });

    const deep = await get("?limit=100&offset=9990");
    expect(deep).toMatchObject({ total: 10_050, total_capped: false, has_more: false });
    expect(deep.files).toHaveLength(60);

    // A rare substring: every match counted, sorted and paged, newest (lowest n) first.
    const names = (body: { files: { filename: string }[] }) => body.files.map((f) => f.filename);
    const rare = Array.from({ length: 10_050 }, (_, i) => i + 1).filter((n) => String(n).includes("99"));
    const rarePage = await get("?filename=99&limit=7&offset=3");
    expect(rarePage).toMatchObject({ total: rare.length, total_capped: false, has_more: true });
    expect(names(rarePage)).toEqual(rare.slice(3, 10).map((n) => `${n}.png`));
    expect(names(await get("?filename=99&sort=asc&limit=2"))).toEqual(rare.slice(-2).reverse().map((n) => `${n}.png`));
    expect(await get("?filename=99&offset=5000")).toMatchObject({ files: [], total: rare.length, has_more: false });
    // A substring in every filename: past the cap, still the newest page.
    const common = await get("?filename=.png&limit=3");
    expect(common).toMatchObject({ total: 10_000, total_capped: true, has_more: true });
    expect(names(common)).toEqual(["1.png", "2.png", "3.png"]);

    // Without index scans the matches are collected in table order, as a bitmap or sequential scan may
    // do on any table; a newest file written last is then not among the first 10,001 found.
    await server.ctx.db.transaction().execute(async (trx) => {
      await sql`
        INSERT INTO files (server_id, team_id, storage_key, filename, original_filename, category, mime_type, size_bytes, sha256, is_public, created_at)
        VALUES (${busy.serverId}, ${busy.teamId}::uuid, ${busy.serverId} || '/bulk/newest.png', 'newest.png', 'newest.png', 'odd', 'image/png', 1,
                repeat('0', 64), true, timestamptz '2026-06-01T00:00:00Z')`.execute(trx);
      await sql`SET LOCAL enable_indexscan = off`.execute(trx);
      const result = await searchFiles(trx, parseSearchParams(busy.serverId, new URLSearchParams("filename=.png&limit=2")));
      expect(result).toMatchObject({ total: 10_000, totalCapped: true });
      expect(result.files.map((f) => f.filename)).toEqual(["newest.png", "1.png"]);
    });
  });
});
