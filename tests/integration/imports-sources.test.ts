import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stashTest } from "../helpers/fixtures.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { startDiscordStandIn, type DiscordStandIn } from "../helpers/discord-standin.ts";
import { CHANNEL, EXPORT_NAME, FIXTURE_ATTACHMENTS, fixtureExport, importRequest, importView, photo } from "../helpers/imports.ts";
import { zipOf } from "../helpers/zips.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";
import type { TestServer } from "../helpers/server.ts";

let discord: DiscordStandIn;
beforeAll(async () => {
  discord = await startDiscordStandIn();
});
afterAll(() => discord.close());

const test = stashTest(() => discord.env);
let server: TestServer;
test.beforeAll(async ({ server: started }) => {
  server = started;
});

async function freshAccount(): Promise<SeededAccount> {
  return seedAccount(server.ctx, { permissions: ["upload", "read"] });
}

describe("a DiscordChatExporter export made with --media", () => {
  it("takes every file from the zip's _Files folder, Windows paths included, without asking Discord", async () => {
    const account = await freshAccount();
    const data = fixtureExport("media");
    const entries = [{ name: `export/${EXPORT_NAME}`, data: JSON.stringify(data) }];
    for (const [index, message] of data.messages.entries()) {
      for (const attachment of message.attachments as Array<{ url: string }>) {
        // deleted_later.png was never downloaded: DiscordChatExporter keeps the link when a download fails.
        if (attachment.url.includes("deleted_later")) continue;
        entries.push({ name: `export/${attachment.url.replace(/\\/g, "/")}`, data: (await photo(30 + index)) as unknown as string });
      }
    }
    const body = new FormData();
    body.append("source", "discord_export");
    body.append("file", new Blob([new Uint8Array(await zipOf(entries))]), "export.zip");
    const res = await importRequest(server, account.key, body);
    expect(res.status).toBe(202);
    const { import: created } = await res.json();
    const cdnBefore = discord.cdnRequests.length;
    await server.runJob(BACKGROUND_JOBS.imports);
    const { import: done, report } = await importView(server, account.key, created.id);
    expect(done.progress).toMatchObject({ total: 4, stored: 3, failed: 1 });
    expect(report!.failed_items).toEqual([expect.objectContaining({ cause: "media_missing", url: `export/${EXPORT_NAME}_Files/deleted_later-0130A.png` })]);
    expect(discord.cdnRequests.length).toBe(cdnBefore);
    for (const a of FIXTURE_ATTACHMENTS.slice(0, 3)) {
      expect((await server.request(`/dc/attachments/${CHANNEL}/${a.attachmentId}/${a.filename}`)).status, a.filename).toBe(200);
    }
    // The archive is deleted once the job is done.
    const left: string[] = [];
    for await (const blob of server.ctx.blobs.list(`imports/${created.id}/`)) left.push(blob.key);
    expect(left).toEqual([]);
  });
});

describe("the owner's bot reading channels", () => {
  const LOGS = "1012345678901234999";

  it("pages through a channel with before=, waits out a 429, and brings every attachment and embed", async () => {
    const account = await freshAccount();
    // 130 messages: one with a file every tenth, and the rest log embeds posted in the last hour.
    for (let i = 0; i < 130; i++) {
      const id = String(1187654321098800000n + BigInt(i) * 4194304n);
      const timestamp = new Date(Date.now() - (130 - i) * 1000).toISOString();
      if (i % 10 === 0) {
        discord.add({ channelId: LOGS, attachmentId: String(1187654321098900000n + BigInt(i) * 4194304n), messageId: id, filename: `shot_${i}.png`, bytes: await photo(100 + i) });
        discord.addMessage({ id, channel_id: LOGS, timestamp, content: `screenshot ${i}`, author: { id: "4", username: "cam", global_name: "Camera" } });
      } else {
        discord.addMessage({ id, channel_id: LOGS, timestamp, embeds: [{ title: "Money", description: `Paid $${i}`, color: 0x2ecc71 }], author: { id: "5", username: "qb-logs", global_name: null, bot: true } });
      }
    }
    discord.rateLimit(1, 0.05);
    const res = await importRequest(server, account.key, { source: "discord_bot", bot_token: discord.token, channel_ids: [LOGS] });
    expect(res.status).toBe(202);
    const { import: created } = await res.json();
    await server.runJob(BACKGROUND_JOBS.imports);
    const { import: done } = await importView(server, account.key, created.id);
    expect(done).toMatchObject({ state: "finished", progress: { total: 13, stored: 13, failed: 0 }, log_entries: 117 });
    const row = await server.ctx.db.selectFrom("imports").select(["secret", "cursor"]).where("id", "=", created.id).executeTakeFirstOrThrow();
    expect(row.secret).toBeNull();
    expect((await server.request(`/dc/attachments/${LOGS}/${String(1187654321098900000n + 120n * 4194304n)}/shot_120.png`)).status).toBe(200);
  });
});

describe("when Discord's undocumented refresh endpoint does not answer", () => {
  it("says so in the report and reads each attachment's message for a fresh link instead", async () => {
    const account = await freshAccount();
    const attachmentId = "1187654321098765700";
    discord.add({ channelId: CHANNEL, attachmentId, messageId: "1187654321098760700", filename: "fallback.png", bytes: await photo(70) });
    const data = fixtureExport("remote");
    const attachment = (data.messages[0]!.attachments as Array<Record<string, unknown>>)[0]!;
    Object.assign(attachment, { id: attachmentId, fileName: "fallback.png", url: discord.link(attachmentId, { expired: true }) });
    data.messages = [{ ...data.messages[0]!, id: "1187654321098760700", embeds: [] }];
    discord.refreshAvailable = false;
    try {
      const body = new FormData();
      body.append("source", "discord_export");
      body.append("bot_token", discord.token);
      body.append("file", new Blob([JSON.stringify(data)]), EXPORT_NAME);
      const { import: created } = await (await importRequest(server, account.key, body)).json();
      await server.runJob(BACKGROUND_JOBS.imports);
      const { import: done } = await importView(server, account.key, created.id);
      expect(done.progress).toMatchObject({ stored: 1, failed: 0 });
      expect(done.notes).toEqual([expect.stringMatching(/^Discord's refresh-urls endpoint did not answer as expected \(HTTP 404\); it is not part of Discord's documented API and may have changed/)]);
    } finally {
      discord.refreshAvailable = true;
    }
  });
});

describe("cancelling a running import", () => {
  it("stops it before its next file, forgets the token at once and keeps what was stored", async () => {
    const account = await freshAccount();
    const ids = Array.from({ length: 6 }, (_, i) => String(1187654321098790000n + BigInt(i) * 4194304n));
    for (const [i, id] of ids.entries()) discord.add({ channelId: CHANNEL, attachmentId: id, messageId: id, filename: `c${i}.png`, bytes: await photo(900 + i) });
    // The first file comes through; the next four wait at Discord, one in each of the job's lanes.
    const held = ids.slice(1, 5).map((id) => discord.hold(id));
    const { import: created } = await (await importRequest(server, account.key, { source: "urls", urls: ids.map((id) => discord.link(id, { expired: true })), bot_token: discord.token })).json();
    const run = server.runJob(BACKGROUND_JOBS.imports);
    await Promise.all(held.map((h) => h.reached));
    const res = await server.request(`/api/imports/${created.id}/cancel`, { method: "POST", headers: { "x-api-key": account.key } });
    expect((await res.json()).import.state).toBe("cancelled");
    expect((await server.ctx.db.selectFrom("imports").select("secret").where("id", "=", created.id).executeTakeFirstOrThrow()).secret).toBeNull();
    for (const h of held) h.release();
    await run;
    const { import: cancelled } = await importView(server, account.key, created.id);
    // The files already on their way are stored; the sixth is never fetched.
    expect(cancelled).toMatchObject({ state: "cancelled", progress: { total: 6, stored: 5 } });
    expect(discord.cdnRequests.filter((p) => p.includes(ids[5]!))).toEqual([]);
    const stored = await server.ctx.db.selectFrom("files").select("id").where("server_id", "=", account.serverId).execute();
    expect(stored.length).toBe(cancelled.progress.stored);
  });
});
