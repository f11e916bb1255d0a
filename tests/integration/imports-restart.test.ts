import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccount } from "../helpers/api-seed.ts";
import { startDiscordStandIn, type DiscordStandIn } from "../helpers/discord-standin.ts";
import { CHANNEL, importRequest, importView, photo } from "../helpers/imports.ts";
import { freePort, startTestServer } from "../helpers/server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";

let discord: DiscordStandIn;
let dataDir: string;
let database: TestDatabase;

beforeAll(async () => {
  discord = await startDiscordStandIn();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-import-restart-"));
  database = await createTestDatabase({ migrated: true });
});
afterAll(async () => {
  await discord.close();
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("an import interrupted by a restart", { timeout: 180_000 }, () => {
  it("goes on where it stopped on the next start and stores no file twice", async () => {
    const port = await freePort();
    const first = await startTestServer(discord.env, { prepared: { dataDir, database, port } });
    const account = await seedAccount(first.ctx, { permissions: ["upload", "read"] });
    const ids = Array.from({ length: 12 }, (_, i) => String(1187654321098770000n + BigInt(i) * 4194304n));
    for (const [i, id] of ids.entries()) discord.add({ channelId: CHANNEL, attachmentId: id, messageId: id, filename: `evidence_${i}.png`, bytes: await photo(200 + i) });
    const held = discord.hold(ids[6]!);
    const res = await importRequest(first, account.key, { source: "urls", urls: ids.map((id) => discord.link(id)) });
    const { import: created } = await res.json();

    const interrupted = first.runJob(BACKGROUND_JOBS.imports);
    await held.reached;
    // The instance stops (SIGTERM) while the seventh file is on its way: its job run ends and hands the import back.
    await first.stop();
    held.release();
    await interrupted;

    const second = await startTestServer(discord.env, { prepared: { dataDir, database, port } });
    try {
      const paused = await second.ctx.db.selectFrom("imports").select(["state", "locked_until", "secret"]).where("id", "=", created.id).executeTakeFirstOrThrow();
      expect(paused).toMatchObject({ state: "running", locked_until: null });
      const pending = await second.ctx.db.selectFrom("import_items").select("seq").where("import_id", "=", created.id).where("state", "=", "pending").execute();
      expect(pending.length).toBeGreaterThan(0);
      expect(pending.length).toBeLessThan(12);

      await second.runJob(BACKGROUND_JOBS.imports);
      const { import: done } = await importView(second, account.key, created.id);
      expect(done).toMatchObject({ state: "finished", progress: { total: 12, stored: 12, duplicates: 0, failed: 0 } });
      const files = await second.ctx.db.selectFrom("files").select(["id", "sha256"]).where("server_id", "=", account.serverId).execute();
      expect(files).toHaveLength(12);
      expect(new Set(files.map((f) => f.sha256)).size).toBe(12);
      const rescued = await second.ctx.db.selectFrom("discord_attachments").select("attachment_id").where("team_id", "=", account.teamId).execute();
      expect(rescued.map((r) => r.attachment_id).sort()).toEqual([...ids].sort());
    } finally {
      await second.stop();
    }
  });
});
