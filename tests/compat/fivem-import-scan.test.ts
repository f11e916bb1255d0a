import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stashTest } from "../helpers/fixtures.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { startDiscordStandIn, type DiscordStandIn } from "../helpers/discord-standin.ts";
import { CHANNEL, photo } from "../helpers/imports.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";
import type { TestServer } from "../helpers/server.ts";

const run = promisify(execFile);
const DB = `stash_scan_${randomBytes(5).toString("hex")}`;

/** SQL on the test's own MariaDB database (Debian's mariadb-server on 127.0.0.1:3306, root without a password). */
async function mariadb(sql: string, database: string | null = DB): Promise<string[][]> {
  const { stdout } = await run("mariadb", ["-h", "127.0.0.1", "-P", "3306", "-u", "root", "--batch", "--raw", "--skip-column-names", ...(database ? ["-D", database] : []), "-e", sql]);
  return stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t"));
}

let discord: DiscordStandIn;
beforeAll(async () => {
  discord = await startDiscordStandIn();
  await mariadb(`CREATE DATABASE ${DB} CHARACTER SET utf8mb4`, null);
  // The galleries as LB Phone, qb-phone and NPWD create them.
  await mariadb(`
    CREATE TABLE phone_photos (phone_number VARCHAR(15) NOT NULL, link VARCHAR(200) NOT NULL, is_video BOOLEAN DEFAULT FALSE, size FLOAT NOT NULL DEFAULT 0,
      timestamp TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, PRIMARY KEY (phone_number, link)) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
    CREATE TABLE phone_gallery (citizenid VARCHAR(255) NOT NULL, image VARCHAR(255) NOT NULL, date TIMESTAMP NULL DEFAULT CURRENT_TIMESTAMP()) CHARACTER SET utf8mb4;
    CREATE TABLE npwd_phone_gallery (id INT(11) NOT NULL AUTO_INCREMENT, identifier VARCHAR(48) DEFAULT NULL, image VARCHAR(255) NOT NULL, PRIMARY KEY (id), KEY identifier (identifier)) CHARACTER SET utf8mb4;
    CREATE TABLE mdt_evidence (id INT AUTO_INCREMENT PRIMARY KEY, photo TEXT NOT NULL);`);
});
afterAll(async () => {
  await mariadb(`DROP DATABASE IF EXISTS ${DB}`, null);
  await discord.close();
});

const test = stashTest(() => discord.env);
let server: TestServer;
let account: SeededAccount;
test.beforeAll(async ({ server: started }) => {
  server = started;
  account = await seedAccount(server.ctx, { permissions: ["upload", "read"] });
});

async function scenario(name: string, env: Record<string, string> = {}) {
  const { stdout } = await run("lua5.4", ["tests/compat/fivem/harness.lua", "fivem/stash", name], {
    env: { ...process.env, STASH_URL: `${server.url}/`, STASH_API_KEY: account.key, STASH_TEST_DB: DB, STASH_IMPORT_TABLES: "mdt_evidence.photo", STASH_DISCORD_BOT_TOKEN: discord.token, ...env },
  });
  const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
  if (!line) throw new Error(`no result from the Lua harness:\n${stdout}`);
  return { ...(JSON.parse(line.slice("RESULT ".length)) as { err: string | null; data: Record<string, unknown> | null }), stdout };
}

describe("stash_import_scan in the FiveM resource, on a real MariaDB", () => {
  it("finds the Discord links in the phone tables, has Stash rescue them, and rewrites each rescued one to a link that answers 200", async () => {
    const ids = Array.from({ length: 7 }, (_, i) => String(1187654321099000000n + BigInt(i) * 4194304n));
    for (const [i, id] of ids.entries()) discord.add({ channelId: CHANNEL, attachmentId: id, messageId: id, filename: `IMG_${1000 + i}.png`, bytes: await photo(800 + i) });
    discord.delete(ids[6]!);
    // Links as the game stored them: signed, their ex long past; one on Discord's other host.
    const links = ids.map((id, i) => discord.link(id, { expired: true, host: i === 3 ? "media.discordapp.net" : undefined }));
    const q = (i: number) => `'${links[i]!.replace(/'/g, "''")}'`;
    await mariadb(`
      INSERT INTO phone_photos (phone_number, link) VALUES ('5550142', ${q(0)}), ('5550142', ${q(1)}), ('5550199', ${q(6)}), ('5550199', 'https://r2.fivemanage.com/keep/me.png');
      INSERT INTO phone_gallery (citizenid, image) VALUES ('TVC12345', ${q(2)}), ('TVC12345', ${q(0)});
      INSERT INTO npwd_phone_gallery (identifier, image) VALUES ('license:ab', ${q(3)}), ('license:cd', ${q(4)});
      INSERT INTO mdt_evidence (photo) VALUES (${q(5)});`);

    const scanned = await scenario("import-scan");
    expect(scanned.err).toBeNull();
    expect(scanned.data).toMatchObject({ links: 7, counts: { phone_photos: 3, phone_gallery: 2, npwd_phone_gallery: 2, mdt_evidence: 1 } });
    const id = String(scanned.data!.id);

    await server.runJob(BACKGROUND_JOBS.imports);
    const applied = await scenario("import-apply", { STASH_IMPORT_ID: id });
    expect(applied.err).toBeNull();
    expect(applied.data).toEqual({
      phone_photos: { changed: 2, too_long: 0 },
      phone_gallery: { changed: 2, too_long: 0 },
      npwd_phone_gallery: { changed: 2, too_long: 0 },
      mdt_evidence: { changed: 1, too_long: 0 },
    });

    const rows = [
      ...(await mariadb("SELECT link FROM phone_photos")),
      ...(await mariadb("SELECT image FROM phone_gallery")),
      ...(await mariadb("SELECT image FROM npwd_phone_gallery")),
      ...(await mariadb("SELECT photo FROM mdt_evidence")),
    ].map(([link]) => link!);
    const rewritten = rows.filter((link) => link.startsWith(`${server.url}/dc/attachments/`));
    expect(rewritten).toHaveLength(7);
    for (const link of rewritten) expect((await fetch(link)).status, link).toBe(200);
    // The deleted attachment and the link that was never Discord's keep what they were.
    expect(rows).toContain(links[6]);
    expect(rows).toContain("https://r2.fivemanage.com/keep/me.png");
  });

  it("the console commands say what they found and refuse to apply without an import id", async () => {
    const { stdout } = await scenario("import-commands");
    expect(stdout).toMatch(/\[stash\] phone_photos: \d+ Discord links/);
    expect(stdout).toContain("[stash] usage: stash_import_apply <import id>");
  });
});
