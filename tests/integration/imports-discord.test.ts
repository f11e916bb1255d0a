import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stashTest } from "../helpers/fixtures.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { traceOf } from "../helpers/upload-fixtures.ts";
import { startDiscordStandIn, type DiscordStandIn } from "../helpers/discord-standin.ts";
import { CHANNEL, EXPORT_NAME, fixtureExport, importRequest, importView, photo, seedFixtureAttachments } from "../helpers/imports.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";
import type { TestServer } from "../helpers/server.ts";

let discord: DiscordStandIn;
beforeAll(async () => {
  discord = await startDiscordStandIn();
  await seedFixtureAttachments(discord);
});
afterAll(() => discord.close());

const test = stashTest(() => discord.env);
let server: TestServer;
let account: SeededAccount;
test.beforeAll(async ({ server: started }) => {
  server = started;
  account = await seedAccount(server.ctx, { permissions: ["upload", "read"] });
});

/** The fixture export, its log message moved into the last hour so the dataset keeps it. */
function exportFile(): Blob {
  const data = fixtureExport("remote");
  data.messages[0]!.timestamp = new Date(Date.now() - 3_600_000).toISOString();
  return new Blob([JSON.stringify(data)], { type: "application/json" });
}

async function exportImport(extra: Record<string, string> = {}) {
  const body = new FormData();
  body.append("source", "discord_export");
  for (const [name, value] of Object.entries(extra)) body.append(name, value);
  body.append("file", exportFile(), EXPORT_NAME);
  return importRequest(server, account.key, body);
}

describe("a DiscordChatExporter export with a bot token", () => {
  let importId: string;

  it("is accepted as a queued import of its four attachments, and brings the three that still exist", async () => {
    const res = await exportImport({ bot_token: discord.token });
    expect(res.status).toBe(202);
    const created = await res.json();
    expect(created.import).toMatchObject({ source: "discord_export", state: "queued", progress: { total: 4, done: 0 } });
    importId = created.import.id;

    await server.runJob(BACKGROUND_JOBS.imports);
    const { import: done, report } = await importView(server, account.key, importId);
    expect(done).toMatchObject({ state: "finished", error: null, progress: { total: 4, stored: 3, duplicates: 0, failed: 1, percent: 100 }, log_entries: 1 });
    expect(done.failures).toEqual([{ cause: "deleted_on_discord", label: "Deleted on Discord", count: 1 }]);
    expect(report!.failed_items).toEqual([
      { url: expect.stringContaining("/1187654321098765499/deleted_later.png"), cause: "deleted_on_discord", reason: "Deleted on Discord", detail: expect.stringMatching(/no fresh link/) },
    ]);
    // All four expired links were refreshed in one call, as Discord's bot User-Agent asks.
    expect(discord.refreshCalls).toEqual([4]);
    expect([...discord.userAgents].every((ua) => /^DiscordBot \(http:\/\/127\.0\.0\.1:\d+, \d+\.\d+\.\d+\)$/.test(ua))).toBe(true);
  });

  it("forgets the bot token when the job ends and records where each file came from", async () => {
    const row = await server.ctx.db.selectFrom("imports").select(["secret", "source_key"]).where("id", "=", importId as never).executeTakeFirstOrThrow();
    expect(row.secret).toBeNull();
    const files = await server.ctx.db.selectFrom("files").select(["metadata", "uploaded_via", "category", "is_public"]).where("server_id", "=", account.serverId).orderBy("created_at").execute();
    expect(files).toHaveLength(3);
    expect(files.every((f) => f.uploaded_via === "import" && f.category === "discord" && f.is_public)).toBe(true);
    expect(files.map((f) => f.metadata)).toContainEqual(
      expect.objectContaining({
        source: "discord_export",
        channel_id: CHANNEL,
        message_id: "1187654321098760002",
        attachment_id: "1187654321098765433",
        author: "Tommy Vercetti",
        original_url: `https://cdn.discordapp.com/attachments/${CHANNEL}/1187654321098765433/bank_cam_1.jpg`,
        posted_at: new Date(Number((1187654321098765433n >> 22n) + 1420070400000n)).toISOString(),
      }),
    );
  });

  it("serves each rescued file at /dc/attachments/… on the CDN base like /f/, ignoring Discord's dead query string", async () => {
    const dc = await server.request(`/dc/attachments/${CHANNEL}/1187654321098765433/bank_cam_1.jpg?ex=65f1a2b3&is=65f05133&hm=dead&`);
    expect(dc.status).toBe(200);
    expect(dc.headers.get("content-type")).toBe("image/jpeg");
    const file = await server.ctx.db.selectFrom("files").select(["server_id", "category", "filename"]).where("metadata", "@>", JSON.stringify({ attachment_id: "1187654321098765433" }) as never).executeTakeFirstOrThrow();
    const f = await server.request(`/f/${file.server_id}/${file.category}/${file.filename}`);
    for (const header of ["cache-control", "content-security-policy", "x-content-type-options", "etag", "access-control-allow-origin", "content-length"]) {
      expect(dc.headers.get(header), header).toBe(f.headers.get(header));
    }
    expect(dc.headers.get("content-security-policy")).toBe("sandbox");
    expect(Buffer.from(await dc.arrayBuffer())).toEqual(Buffer.from(await f.arrayBuffer()));
    // The name is part of the address, as it was on Discord; the deleted one was never rescued.
    expect((await server.request(`/dc/attachments/${CHANNEL}/1187654321098765433/other.jpg`)).status).toBe(404);
    expect((await server.request(`/dc/attachments/${CHANNEL}/1187654321098765499/deleted_later.png`)).status).toBe(404);
  });

  it("stores the export's embeds as log entries in the discord-import dataset, at the time they were posted", async () => {
    const entries = await server.ctx.db
      .selectFrom("log_entries as e")
      .innerJoin("log_datasets as d", "d.id", "e.dataset_id")
      .select(["d.name", "e.message", "e.level", "e.resource", "e.metadata", "e.ts"])
      .where("d.server_id", "=", account.serverId)
      .execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ name: "discord-import", level: "error", resource: "LB Phone", message: expect.stringContaining("Citizen ID: TVC12345"), metadata: { source: "discord_import", message_id: "1187654321098760001" } });
  });

  it("offers the rewrite per phone table, checked against the column, and the map of old to new links", async () => {
    const { report } = await importView(server, account.key, importId);
    const lb = report!.rewrite.find((r) => r.table === "phone_photos")!;
    expect(lb.sql).toContain(`REPLACE(SUBSTRING_INDEX(\`link\`, '?', 1), 'https://cdn.discordapp.com/', '${server.url}/dc/')`);
    expect(lb).toMatchObject({ too_long: 0, longest: `${server.url}/dc/attachments/${CHANNEL}/1187654321098765433/bank_cam_1.jpg`.length });
    const csv = await server.request(`/api/imports/${importId}/map.csv`, { headers: { "x-api-key": account.key } });
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("old_url,new_url");
    expect(lines).toContain(`https://cdn.discordapp.com/attachments/${CHANNEL}/1187654321098765432/IMG_2041.png,${server.url}/dc/attachments/${CHANNEL}/1187654321098765432/IMG_2041.png`);
    expect(lines).toHaveLength(4);
    const json = await (await server.request(`/api/imports/${importId}/map.json`, { headers: { "x-api-key": account.key } })).json();
    expect(json.map).toHaveLength(3);
  });

  it("stores nothing twice: the same export again finds every attachment already rescued, and uses no quota", async () => {
    const before = await traceOf(server, account);
    const res = await exportImport({ bot_token: discord.token });
    const { import: again } = await res.json();
    await server.runJob(BACKGROUND_JOBS.imports);
    const { import: done } = await importView(server, account.key, again.id);
    expect(done.progress).toMatchObject({ stored: 0, duplicates: 3, failed: 1 });
    expect(await traceOf(server, account)).toEqual(before);
  });
});

describe("a pasted list of URLs", () => {
  it("fetches live links as they are, reports expired ones without a token, and finds bytes already in the team", async () => {
    discord.add({ channelId: CHANNEL, attachmentId: "1187654321098765500", messageId: "1187654321098760010", filename: "fresh.png", bytes: await photo(20) });
    discord.add({ channelId: CHANNEL, attachmentId: "1187654321098765501", messageId: "1187654321098760011", filename: "expired.png", bytes: await photo(21) });
    // The same bytes as IMG_2041.png under another attachment id: stored once.
    discord.add({ channelId: CHANNEL, attachmentId: "1187654321098765502", messageId: "1187654321098760012", filename: "copy.png", bytes: await photo(1) });
    const urls = [discord.link("1187654321098765500"), discord.link("1187654321098765501", { expired: true }), discord.link("1187654321098765502", { host: "media.discordapp.net" })];
    const res = await importRequest(server, account.key, { source: "urls", urls: urls.join("\n") });
    expect(res.status).toBe(202);
    const { import: created } = await res.json();
    const filesBefore = (await traceOf(server, account)).rows;
    await server.runJob(BACKGROUND_JOBS.imports);
    const { import: done, report } = await importView(server, account.key, created.id);
    expect(done.progress).toMatchObject({ total: 3, stored: 1, duplicates: 1, failed: 1 });
    expect(report!.failed_items).toEqual([expect.objectContaining({ cause: "link_expired", detail: expect.stringMatching(/give a bot token to refresh it/) })]);
    expect((await traceOf(server, account)).rows).toBe(filesBefore + 1);
    // The copy is served at its own Discord address, from the file it shares.
    expect((await server.request(`/dc/attachments/${CHANNEL}/1187654321098765502/copy.png`)).status).toBe(200);
  });

  it("refuses a private address or a host nobody named with the default settings, naming the line, and creates nothing", async () => {
    const before = await server.ctx.db.selectFrom("imports").select("id").where("team_id", "=", account.teamId).execute();
    for (const bad of [`${discord.url}/attachments/1/2/a.png`, "http://10.0.0.8/a.png", "http://169.254.169.254/latest/meta-data/", "https://evil.example/a.png"]) {
      const res = await importRequest(server, account.key, { source: "urls", urls: `${discord.link("1187654321098765500")}\n${bad}` });
      expect(res.status, bad).toBe(422);
      const body = await res.json();
      expect(body).toMatchObject({ success: false, code: "url_not_allowed", refused_count: 1, refused: [{ line: 2, url: bad }] });
      expect(body.error).toMatch(/^1 URL was refused, so nothing was imported: line 2: /);
    }
    expect(await server.ctx.db.selectFrom("imports").select("id").where("team_id", "=", account.teamId).execute()).toEqual(before);
  });
});
