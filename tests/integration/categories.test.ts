import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { canonicalCategory } from "../../app/lib/categories.ts";
import { getAnalytics } from "../../app/services/stats/analytics.server.ts";
import { CATEGORY_COUNT_CAP, listStoredCategories } from "../../app/services/servers/categories.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { createSessionCookie } from "../helpers/auth.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, png } from "../helpers/upload-fixtures.ts";
import type { ServerId } from "../../app/lib/ids.ts";

let server: TestServer;
let account: SeededAccount;
let cookie: string;
/** Stored category → ids of the files uploaded under it. */
const uploaded = new Map<string, string[]>();

/** What scripts send, as they send it; the API stores the sanitised slug. */
const SENT = ["phone_photos", "phone_photos", "screenshots", "screenshot", "mdt_mugshot", "Phone Camera", "phone-photos"];

async function upload(who: SeededAccount, category: string) {
  const res = await server.request("/api/upload", {
    method: "POST",
    headers: { "x-api-key": who.key },
    body: form([
      { field: "category", data: category },
      { field: "file", data: await png(), filename: "shot.png", type: "image/png" },
    ]),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; category: string };
}

async function page(path: string) {
  const res = await server.request(path, { headers: { Cookie: cookie } });
  expect(res.status).toBe(200);
  return res.text();
}

function idsIn(html: string) {
  return [...uploaded.values()].flat().filter((id) => html.includes(id));
}

test.beforeAll(async ({ server: started }) => {
  server = started;
  account = await seedAccount(server.ctx);
  cookie = (await createSessionCookie(server.ctx, account.userId)).cookie;
  for (const category of SENT) {
    const file = await upload(account, category);
    uploaded.set(file.category, [...(uploaded.get(file.category) ?? []), file.id]);
  }
  // Someone else's files count for nobody here.
  const stranger = await seedAccount(server.ctx);
  await upload(stranger, "phone_photos");
  await upload(stranger, "bodycam");
});

describe("categories as scripts send them", () => {
  it("are stored as sent, sanitised, not renamed", () => {
    expect([...uploaded.keys()].sort()).toEqual(["mdt_mugshot", "phone-photos", "phone_camera", "phone_photos", "screenshot", "screenshots"]);
  });

  it("are listed per account and per server with their counts, exactly as stored", async () => {
    const mine = await listStoredCategories(server.ctx.db, { teamId: account.teamId });
    expect(new Map(mine.map((c) => [c.category, c.files]))).toEqual(
      new Map([
        ["phone_photos", 2],
        ["screenshots", 1],
        ["screenshot", 1],
        ["mdt_mugshot", 1],
        ["phone_camera", 1],
        ["phone-photos", 1],
      ]),
    );
    const second = await createServer(server.ctx.db, { teamId: account.teamId, name: "Empty RP" });
    expect(await listStoredCategories(server.ctx.db, { serverId: second.id })).toEqual([]);
    expect(await listStoredCategories(server.ctx.db, { serverId: account.serverId })).toHaveLength(6);
  });

  it("stop counting at the cap, per server, and say so", async () => {
    const busy = await seedAccount(server.ctx);
    const other = await createServer(server.ctx.db, { teamId: busy.teamId, name: "Second RP" });
    const rows = (serverId: ServerId, category: string, n: number) => sql`
      INSERT INTO files (server_id, team_id, storage_key, filename, original_filename, category, mime_type, size_bytes, sha256, is_public)
      SELECT ${serverId}, ${busy.teamId}::uuid, ${serverId} || '/' || ${category} || '/' || i, i || '.png', 'cam.png', ${category}, 'image/png', 1, repeat('0', 64), true
      FROM generate_series(1, ${n}) AS i`;
    await rows(busy.serverId, "security_camera", CATEGORY_COUNT_CAP + 5).execute(server.ctx.db);
    await rows(busy.serverId, "bodycam", 3).execute(server.ctx.db);
    await rows(other.id, "bodycam", 2).execute(server.ctx.db);
    const counts = await listStoredCategories(server.ctx.db, { teamId: busy.teamId });
    expect(counts.sort((a, b) => a.category.localeCompare(b.category))).toEqual([
      { category: "bodycam", files: 5 },
      { category: "security_camera", files: CATEGORY_COUNT_CAP, capped: true },
    ]);
    cookie = (await createSessionCookie(server.ctx, busy.userId)).cookie;
    try {
      const html = await page("/gallery");
      expect(html).toContain(`<option value="security_camera">Security Camera (${CATEGORY_COUNT_CAP}+)</option>`);
      expect(html).toContain('<option value="bodycam">Bodycam (5)</option>');
    } finally {
      cookie = (await createSessionCookie(server.ctx, account.userId)).cookie;
    }
  });
});

describe("the gallery filter", () => {
  it("finds every stored file through the filter of its own category", async () => {
    for (const [category, ids] of uploaded) {
      const html = await page(`/gallery?category=${encodeURIComponent(category)}`);
      for (const id of ids) expect(html, `a ${category} file filtered to ${category}`).toContain(id);
      // Filtered, not fallen back to every category.
      expect(html).toContain(`<option value="${canonicalCategory(category)}" selected="">`);
      expect(idsIn(html).length).toBeLessThan(SENT.length);
    }
  });

  it("shows a named category's aliases with it and an unnamed category alone", async () => {
    const phone = idsIn(await page("/gallery?category=phone_photos"));
    expect(phone.sort()).toEqual([...uploaded.get("phone_photos")!, ...uploaded.get("phone_camera")!, ...uploaded.get("phone-photos")!].sort());
    // The spec's filter value phone_camera reads as phone_photos.
    expect(idsIn(await page("/gallery?category=phone_camera")).sort()).toEqual(phone.sort());
    expect(idsIn(await page("/gallery?category=screenshots")).sort()).toEqual([...uploaded.get("screenshots")!, ...uploaded.get("screenshot")!].sort());
    expect(idsIn(await page("/gallery?category=mdt_mugshot"))).toEqual(uploaded.get("mdt_mugshot"));
    expect(idsIn(await page("/gallery?category=all"))).toHaveLength(SENT.length);
  });

  it("offers the named categories with the spec's labels and the account's own, with counts", async () => {
    const html = await page("/gallery");
    for (const option of [
      '<option value="all" selected="">All Categories</option>',
      '<option value="phone_photos">Phone Camera (4)</option>',
      '<option value="police_evidence">Police Evidence (0)</option>',
      '<option value="security_camera">Security Camera (0)</option>',
      '<option value="screenshots">Screenshot (2)</option>',
      '<option value="phone_audio">Voice Note (0)</option>',
      '<option value="mdt_mugshot">Mdt Mugshot (1)</option>',
      '<option value="other">Other (0)</option>',
    ]) {
      expect(html).toContain(option);
    }
    // The stranger's bodycam clip is not counted here.
    expect(html).toContain('<option value="bodycam">Bodycam (0)</option>');
  });

  it("keeps a filter with no files selectable and says nothing matches", async () => {
    const html = await page("/gallery?category=Parking%20Tickets");
    expect(html).toContain('<option value="parking_tickets" selected="">Parking Tickets (0)</option>');
    expect(html).toContain("No files match your current filters");
  });
});

describe("other screens", () => {
  it("the upload page offers the names scripts send, `other` by default, and the account's own", async () => {
    const html = await page("/upload");
    expect(html).toContain('<option value="screenshots">Screenshot</option>');
    expect(html).toContain('<option value="phone_photos">Phone Camera</option>');
    expect(html).toContain('<option value="phone_audio">Voice Note</option>');
    expect(html).toContain('<option value="mdt_mugshot">Mdt Mugshot</option>');
    expect(html).toContain('<option value="other" selected="">Other</option>');
  });

  it("the retention picker offers the server's categories exactly as stored, with counts", async () => {
    const html = await page(`/servers/${account.serverId}`);
    expect(html).toContain('<option value="screenshot">Screenshot · 1 file</option>');
    expect(html).toContain('<option value="screenshots">Screenshot · 1 file</option>');
    expect(html).toContain('<option value="phone_photos">Phone Camera · 2 files</option>');
    expect(html).toContain('<option value="mdt_mugshot">Mdt Mugshot · 1 file</option>');
    expect(html).toContain('<option value="police_evidence">Police Evidence · 0 files</option>');
  });

  it("analytics groups stored categories as the screens do, labelled through the catalogue", async () => {
    const analytics = await getAnalytics(server.ctx.db, account.teamId, 30);
    const size = (await png()).length;
    expect(analytics.categories).toEqual([
      { name: "Phone Camera", files: 4, bytes: 4 * size },
      { name: "Screenshot", files: 2, bytes: 2 * size },
      { name: "Mdt Mugshot", files: 1, bytes: size },
    ]);
    await page("/analytics");
  });
});
