import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stashTest } from "../helpers/fixtures.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { traceOf } from "../helpers/upload-fixtures.ts";
import { startDiscordStandIn, type DiscordStandIn } from "../helpers/discord-standin.ts";
import { CHANNEL, EXPORT_NAME, fixtureExport, importRequest, importView, photo } from "../helpers/imports.ts";
import { traversalZip, zipBomb, zipOf } from "../helpers/zips.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";
import type { TestServer } from "../helpers/server.ts";

let discord: DiscordStandIn;
beforeAll(async () => {
  discord = await startDiscordStandIn();
  discord.add({ channelId: CHANNEL, attachmentId: "1187654321098765600", messageId: "1187654321098760600", filename: "a.png", bytes: await photo(3) });
});
afterAll(() => discord.close());

// A small archive cap, so the size refusals are cheap to reach.
const test = stashTest(() => ({ ...discord.env, IMPORT_MAX_ARCHIVE_MB: "1" }));
let server: TestServer;
let account: SeededAccount;
test.beforeAll(async ({ server: started }) => {
  server = started;
  account = await seedAccount(server.ctx, { permissions: ["upload", "read"] });
});

function upload(source: string, data: Buffer | string, filename: string, fields: Record<string, string> = {}) {
  const body = new FormData();
  body.append("source", source);
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append("file", new Blob([typeof data === "string" ? data : new Uint8Array(data)]), filename);
  return importRequest(server, account.key, body);
}

/** Everything an import could leave: files, blobs, quota, import rows and their blobs, temp uploads. */
async function leftovers() {
  const imports = await server.ctx.db.selectFrom("imports").select(["id", "state", "secret"]).where("team_id", "=", account.teamId).orderBy("created_at").execute();
  const importBlobs: string[] = [];
  for await (const blob of server.ctx.blobs.list("imports/")) importBlobs.push(blob.key);
  return { trace: await traceOf(server, account), imports, importBlobs };
}

describe("bad input refused before anything is kept", () => {
  it.each([
    ["text that is not JSON", "discord_export", "<html>not an export</html>", "export.json", 400, "invalid_export", /^Upload the DiscordChatExporter export as its \.json file/],
    ["JSON that is not an export", "discord_export", '{"hello":"world"}', "export.json", 400, "invalid_export", /^This is not a DiscordChatExporter JSON export: channel/],
    ["a --media export without its files", "discord_export", JSON.stringify(fixtureExport("media")), EXPORT_NAME, 400, "invalid_export", /made with --media.*Upload the JSON and its _Files folder together as one zip/],
  ])("%s", async (_name, source, data, filename, status, code, message) => {
    const before = await leftovers();
    const res = await upload(source, data, filename);
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, status: "error", code });
    expect(body.error).toMatch(message);
    expect(await leftovers()).toEqual(before);
  });

  it("a zip with an entry that climbs out of its folder", async () => {
    const before = await leftovers();
    const res = await upload("folder", await traversalZip(await photo(4)), "photos.zip");
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: "unsafe_archive", error: "The archive was refused: invalid relative path: ../../evil.png" });
    expect(await leftovers()).toEqual(before);
  });

  it("a zip bomb, refused from its central directory before a byte is unpacked", async () => {
    const before = await leftovers();
    const res = await upload("folder", await zipBomb(), "photos.zip");
    expect(res.status).toBe(422);
    expect((await res.json()).error).toMatch(/^photos\/huge\.png is compressed \d+ to 1, which only a zip bomb is$/);
    expect(await leftovers()).toEqual(before);
  });

  it("an upload past IMPORT_MAX_ARCHIVE_MB, cut off while it streams", async () => {
    const before = await leftovers();
    const res = await upload("folder", Buffer.alloc(1536 * 1024, 7), "photos.zip");
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "file_too_large", max_size_mb: 1 });
    expect(await leftovers()).toEqual(before);
  });

  it("an archive that would unpack to more than twice IMPORT_MAX_ARCHIVE_MB", async () => {
    const before = await leftovers();
    // Text of four letters compresses about 4 to 1: 3 MiB in under 1 MiB.
    const text = (seed: number) => Buffer.from(Array.from({ length: 1024 * 1024 }, (_, i) => "acgt"[(i * 7919 + seed * 104729 + ((i * i) % 13)) % 4]).join(""));
    const zip = await zipOf([0, 1, 2].map((seed) => ({ name: `logs/part-${seed}.txt`, data: text(seed) })));
    expect(zip.length).toBeLessThan(1024 * 1024);
    const res = await upload("folder", zip, "photos.zip");
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: "unsafe_archive", error: "The archive would unpack to more than 2 MB", max_unpacked_mb: 2 });
    expect(await leftovers()).toEqual(before);
  });

  it("a second import while one is in progress", async () => {
    const first = await importRequest(server, account.key, { source: "urls", urls: discord.link("1187654321098765600"), draft: true });
    expect(first.status).toBe(202);
    const { import: draft } = await first.json();
    const before = await leftovers();
    const second = await upload("folder", await zipOf([{ name: "b.png", data: await photo(6) }]), "more.zip");
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ code: "import_in_progress", import_id: draft.id });
    expect(await leftovers()).toEqual(before);
    const cancelled = await server.request(`/api/imports/${draft.id}/cancel`, { method: "POST", headers: { "x-api-key": account.key } });
    expect((await cancelled.json()).import.state).toBe("cancelled");
  });
});

describe("refusals only Discord can give end the job cleanly", () => {
  async function crawl() {
    discord.addMessage({ id: "1187654321098760600", channel_id: CHANNEL, content: "photo", author: { id: "402345678901234567", username: "tommy.v", global_name: "Tommy Vercetti" } });
    const res = await importRequest(server, account.key, { source: "discord_bot", bot_token: discord.token, channel_ids: CHANNEL });
    expect(res.status).toBe(202);
    return (await res.json()).import.id as string;
  }

  it("a revoked bot token: the import fails saying so, keeps nothing of the token and stores nothing", async () => {
    const before = await traceOf(server, account);
    discord.revokeToken();
    try {
      const id = await crawl();
      await server.runJob(BACKGROUND_JOBS.imports);
      const { import: failed } = await importView(server, account.key, id);
      expect(failed).toMatchObject({ state: "failed", progress: { total: 0, stored: 0 }, error: { code: "discord_token_invalid", message: expect.stringMatching(/^Discord refused the bot token \(401 Unauthorized\)/) } });
    } finally {
      discord.revokeToken(false);
    }
    expect(await traceOf(server, account)).toEqual(before);
    const rows = await server.ctx.db.selectFrom("imports").select("secret").where("team_id", "=", account.teamId).execute();
    expect(rows.every((r) => r.secret === null)).toBe(true);
  });

  it("a bot without the Message Content intent: the import fails explaining how to turn it on", async () => {
    const before = await traceOf(server, account);
    discord.setIntent(false);
    try {
      const id = await crawl();
      await server.runJob(BACKGROUND_JOBS.imports);
      const { import: failed } = await importView(server, account.key, id);
      expect(failed).toMatchObject({ state: "failed", error: { code: "discord_intent_missing", message: expect.stringContaining('Turn on "Message Content Intent" on the Bot page') } });
    } finally {
      discord.setIntent(true);
    }
    expect(await traceOf(server, account)).toEqual(before);
  });
});
