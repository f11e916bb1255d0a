import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { GB } from "../../app/lib/plans.ts";
import { decodeCursor, encodeCursor, galleryPageQuery, gallerySearchQuery, listGalleryFiles, userHasFiles } from "../../app/services/files/gallery.server.ts";
import { reserveQuota } from "../../app/services/billing/quota.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { getStorageSummary } from "../../app/services/files/storage-summary.server.ts";
import { createUser } from "../../app/services/accounts/users.server.ts";
import type { TestServer } from "../helpers/server.ts";
import type { ServerId, TeamId } from "../../app/lib/ids.ts";
import { findPersonalTeam } from "../../app/services/teams/teams.server.ts";


let server: TestServer;

test.beforeAll(async ({ server: started }) => {
  server = started;
});

async function owner() {
  const user = await createUser(server.ctx.db, { email: `g-${randomBytes(4).toString("hex")}@example.com`, verified: true });
  const teamId = (await findPersonalTeam(server.ctx.db, user.id))!;
  const gameServer = await createServer(server.ctx.db, { teamId, name: "Los Santos RP" });
  return { teamId, serverId: gameServer.id };
}

interface Row {
  original?: string;
  category?: string;
  player?: string | null;
  at?: Date;
  size?: number;
  mime?: string;
}

async function insertFiles(o: { teamId: TeamId; serverId: ServerId }, rows: Row[]) {
  const values = rows.map((r, i) => {
    const filename = `${randomBytes(8).toString("hex")}.png`;
    const category = r.category ?? "other";
    return {
      server_id: o.serverId,
      team_id: o.teamId,
      storage_key: `${o.serverId}/${category}/${filename}`,
      filename,
      original_filename: r.original ?? `photo-${i}.png`,
      category,
      mime_type: r.mime ?? "image/png",
      size_bytes: r.size ?? 1024,
      sha256: "0".repeat(64),
      is_public: true,
      player_name: r.player ?? null,
      metadata: JSON.stringify({}),
      created_at: r.at ?? new Date(),
    };
  });
  for (let i = 0; i < values.length; i += 1000) {
    await server.ctx.db.insertInto("files").values(values.slice(i, i + 1000)).execute();
  }
}

describe("gallery listing", () => {
  it("lists newest first and filters by category and case-insensitive search on name, original name and player", async () => {
    const o = await owner();
    const base = Date.now() - 60_000;
    await insertFiles(o, [
      { original: "Bank Heist.png", category: "police_evidence", player: "John Doe", at: new Date(base + 1000) },
      { original: "selfie.jpg", category: "phone_camera", player: "Jane Smith", at: new Date(base + 2000) },
      { original: "cam-04.png", category: "security_camera", player: null, at: new Date(base + 3000) },
      { original: "notes_100%.txt", category: "other", player: "jimmy_ray", at: new Date(base + 4000), mime: "text/plain" },
    ]);
    const all = await listGalleryFiles(server.ctx.db, o.teamId);
    expect(all.files.map((f) => f.originalFilename)).toEqual(["notes_100%.txt", "cam-04.png", "selfie.jpg", "Bank Heist.png"]);
    expect(all.files[0]).toMatchObject({ serverName: "Los Santos RP", mimeType: "text/plain", sizeBytes: 1024 });
    expect(all.nextCursor).toBeNull();

    const byCategory = await listGalleryFiles(server.ctx.db, o.teamId, { category: "phone_camera" });
    expect(byCategory.files.map((f) => f.originalFilename)).toEqual(["selfie.jpg"]);
    expect((await listGalleryFiles(server.ctx.db, o.teamId, { category: "all" })).files).toHaveLength(4);

    expect((await listGalleryFiles(server.ctx.db, o.teamId, { search: "BANK" })).files.map((f) => f.originalFilename)).toEqual([
      "Bank Heist.png",
    ]);
    expect((await listGalleryFiles(server.ctx.db, o.teamId, { search: "jane" })).files.map((f) => f.originalFilename)).toEqual([
      "selfie.jpg",
    ]);
    const stored = all.files.find((f) => f.originalFilename === "cam-04.png")!;
    expect((await listGalleryFiles(server.ctx.db, o.teamId, { search: stored.filename.slice(2, 10) })).files.map((f) => f.id)).toEqual([
      stored.id,
    ]);
    // LIKE wildcards in the search are literal characters.
    expect((await listGalleryFiles(server.ctx.db, o.teamId, { search: "100%" })).files).toHaveLength(1);
    expect((await listGalleryFiles(server.ctx.db, o.teamId, { search: "_" })).files.map((f) => f.originalFilename)).toEqual([
      "notes_100%.txt",
    ]);
    expect((await listGalleryFiles(server.ctx.db, o.teamId, { search: "j", category: "police_evidence" })).files).toHaveLength(1);
    expect((await listGalleryFiles(server.ctx.db, o.teamId, { search: "nothing-like-this" })).files).toEqual([]);
  });

  it("never shows another user's files", async () => {
    const a = await owner();
    const b = await owner();
    await insertFiles(a, [{ original: "mine.png" }]);
    expect((await listGalleryFiles(server.ctx.db, b.teamId)).files).toEqual([]);
    expect(await userHasFiles(server.ctx.db, b.teamId)).toBe(false);
    expect(await userHasFiles(server.ctx.db, a.teamId)).toBe(true);
  });

  it("pages with a cursor without gaps or repeats, even for files uploaded in the same microsecond", async () => {
    const o = await owner();
    const same = new Date(Date.now() - 5000);
    await insertFiles(
      o,
      Array.from({ length: 23 }, (_, i) => ({ original: `f${i}.png`, at: i < 10 ? same : new Date(same.getTime() - i * 1000) })),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await listGalleryFiles(server.ctx.db, o.teamId, { limit: 5, cursor });
      seen.push(...page.files.map((f) => f.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(5);
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
  });

  it("treats a malformed cursor as the first page", async () => {
    expect(decodeCursor("not-base64-json")).toBeNull();
    expect(decodeCursor(Buffer.from('["2026-01-01", "x"]').toString("base64url"))).toBeNull();
    const cursor = encodeCursor({ at: "2026-11-22 17:30:38.123456+00", id: "00000000-0000-4000-8000-000000000000" });
    expect(decodeCursor(cursor)).toEqual({ at: "2026-11-22 17:30:38.123456+00", id: "00000000-0000-4000-8000-000000000000" });
    const o = await owner();
    await insertFiles(o, [{ original: "a.png" }]);
    expect((await listGalleryFiles(server.ctx.db, o.teamId, { cursor: "garbage" })).files).toHaveLength(1);
  });
});

describe("gallery with 10,000 files", () => {
  let big: { teamId: TeamId; serverId: ServerId };

  /** n rows for `o` in one INSERT ... SELECT, one second apart, the newest `shot-{n-1}`. */
  async function generateFiles(o: { teamId: TeamId; serverId: ServerId }, n: number, prefix: string) {
    await sql`
      INSERT INTO files (server_id, team_id, storage_key, filename, original_filename, category, mime_type, size_bytes, sha256, is_public, player_name, created_at)
      SELECT ${o.serverId}, ${o.teamId}::uuid, ${o.serverId} || '/k/' || md5(random()::text || i), md5(random()::text || i) || '.png',
             ${prefix} || i || '.png', (ARRAY['phone_camera', 'police_evidence', 'security_camera', 'other'])[i % 4 + 1],
             'image/png', 1024, repeat('0', 64), true, CASE WHEN i % 7 = 0 THEN 'Player ' || i END,
             now() - make_interval(secs => ${n} - i)
      FROM generate_series(0, ${n - 1}) AS i`.execute(server.ctx.db);
  }

  beforeAll(async () => {
    big = await owner();
    await generateFiles(big, 10_000, "shot-");
    // Other accounts' rows, so the table is the size where plans matter (files of many owners).
    await generateFiles(await owner(), 90_000, "other-");
    await sql`ANALYZE files`.execute(server.ctx.db);
  }, 120_000);

  it("reads a deep page as fast as the first", async () => {
    let cursor: string | null = null;
    for (let i = 0; i < 200; i++) {
      const page = await listGalleryFiles(server.ctx.db, big.teamId, { limit: 48, cursor });
      cursor = page.nextCursor;
    }
    const t0 = performance.now();
    const first = await listGalleryFiles(server.ctx.db, big.teamId, { limit: 48 });
    const firstMs = performance.now() - t0;
    const t1 = performance.now();
    const deep = await listGalleryFiles(server.ctx.db, big.teamId, { limit: 48, cursor });
    const deepMs = performance.now() - t1;
    expect(first.files[0]!.originalFilename).toBe("shot-9999.png");
    expect(deep.files.slice(0, 2).map((f) => f.originalFilename)).toEqual(["shot-399.png", "shot-398.png"]);
    expect(deep.files).toHaveLength(48);
    expect(deepMs).toBeLessThan(Math.max(50, firstMs * 5));
  });

  it("pages through a rare search's matches newest first, and through a search matching every file", async () => {
    // shot-12, shot-120…129 and shot-1200…1299: 111 files, in three pages.
    const expected = Array.from({ length: 10_000 }, (_, i) => 9_999 - i)
      .filter((i) => `shot-${i}.png`.includes("shot-12"))
      .map((i) => `shot-${i}.png`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listGalleryFiles>> = await listGalleryFiles(server.ctx.db, big.teamId, { search: "SHOT-12", limit: 48, cursor });
      seen.push(...page.files.map((f) => f.originalFilename));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);

    // More matches than the sort cap (10,002), the newest written last: still the newest first.
    const busy = await owner();
    await generateFiles(busy, 10_001, "many-");
    await sql`
      INSERT INTO files (server_id, team_id, storage_key, filename, original_filename, category, mime_type, size_bytes, sha256, is_public)
      VALUES (${busy.serverId}, ${busy.teamId}::uuid, ${busy.serverId} || '/k/newest', 'newest.png', 'newest.png', 'other', 'image/png', 1024, repeat('0', 64), true)`.execute(
      server.ctx.db,
    );
    // Without index scans the matches are collected in table order, as a bitmap or sequential scan
    // may do on any table: the first 10,001 found then leave out the newest file.
    await server.ctx.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_indexscan = off`.execute(trx);
      const all = await listGalleryFiles(trx, busy.teamId, { search: ".png", limit: 3 });
      expect(all.files.map((f) => f.originalFilename)).toEqual(["newest.png", "many-10000.png", "many-9999.png"]);
      const next = await listGalleryFiles(trx, busy.teamId, { search: ".png", limit: 2, cursor: all.nextCursor });
      expect(next.files.map((f) => f.originalFilename)).toEqual(["many-9998.png", "many-9997.png"]);
    });
    const all = await listGalleryFiles(server.ctx.db, busy.teamId, { search: ".png", limit: 3 });
    expect(all.files.map((f) => f.originalFilename)).toEqual(["newest.png", "many-10000.png", "many-9999.png"]);
  });

  it("plans the page query on an index, with no sequential scan of files", async () => {
    const { nextCursor: cursor } = await listGalleryFiles(server.ctx.db, big.teamId, { limit: 48 });
    const queries = [{}, { category: "phone_camera" }, { search: "shot-12" }, { search: "Player 70", category: "other" }];
    const plans: string[] = [];
    for (const query of queries) {
      // The very query the service runs, explained on this database (PGlite, or PostgreSQL in CI).
      const q = { ...query, cursor, limit: 48 };
      const rows = await ("search" in q ? gallerySearchQuery(server.ctx.db, big.teamId, q) : galleryPageQuery(server.ctx.db, big.teamId, q)).explain();
      plans.push(rows.map((r) => String(r["QUERY PLAN"])).join("\n"));
    }
    for (const plan of plans) {
      expect(plan, plan).not.toMatch(/Seq Scan on files/);
      expect(plan, plan).toMatch(/Index Scan|Index Only Scan|Bitmap Index Scan/);
    }
  });
});

describe("storage summary", () => {
  it("reports used, quota, remaining and the low-storage flag from the account's real quota", async () => {
    const o = await owner();
    await insertFiles(o, [{ size: 10 }, { size: 20 }]);
    const empty = await getStorageSummary(server.ctx.db, o.teamId);
    expect(empty).toMatchObject({ tier: "free", usedBytes: 0, quotaBytes: 5 * GB, remainingBytes: 5 * GB, percentUsed: 0, low: false, fileCount: 2 });

    expect(await reserveQuota(server.ctx.db, o.teamId, Math.round(4.6 * GB))).toBe(true);
    const low = await getStorageSummary(server.ctx.db, o.teamId);
    expect(low.percentUsed).toBe(92);
    expect(low.low).toBe(true);
    expect(low.remainingBytes).toBe(5 * GB - Math.round(4.6 * GB));

    await server.ctx.db.insertInto("storage_addons").values({ team_id: o.teamId, gb: 5 }).execute();
    const bigger = await getStorageSummary(server.ctx.db, o.teamId);
    expect(bigger.quotaBytes).toBe(10 * GB);
    expect(bigger.low).toBe(false);
  });
});
