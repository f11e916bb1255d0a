import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/test-db.ts";
import { photo } from "../helpers/imports.ts";

const run = promisify(execFile);

let dataDir: string;
let filesDir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;

async function cli(...args: string[]) {
  const env = { ...process.env, LOG_LEVEL: "silent", NODE_ENV: "test", DATA_DIR: dataDir, DATABASE_URL: database.url ?? "" };
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "cli/index.ts", ...args], { env });
    return { code: 0, stdout: stdout.trim(), stderr: "" };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout.trim(), stderr: e.stderr.trim() };
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-cli-import-"));
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-cli-files-"));
  fs.mkdirSync(path.join(filesDir, "case-7"));
  fs.writeFileSync(path.join(filesDir, "case-7", "scene.png"), await photo(700));
  fs.writeFileSync(path.join(filesDir, "mugshot.png"), await photo(701));
  fs.writeFileSync(path.join(filesDir, "notes.txt"), "not media");
  fs.writeFileSync(path.join(filesDir, "list.txt"), "https://cdn.discordapp.com/attachments/1012345678901234567/1187654321098765432/a.png\nhttp://192.168.1.20/old.png\n");
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(filesDir, { recursive: true, force: true });
});

describe("the import commands", { timeout: 240_000 }, () => {
  it("import:folder runs the import in the CLI's own process and prints its report; import:urls refuses a private address", async () => {
    expect((await cli("user:create", "--email", "owner@example.com", "--password", "correct horse", "--verified")).code).toBe(0);
    const created = await cli("server:create", "--owner", "owner@example.com", "--name", "Los Santos RP");
    const serverId = created.stdout.split("\n")[0]!;

    const folder = await cli("import:folder", "--server", serverId, "--path", filesDir, "--category", "evidence");
    expect(folder.code).toBe(0);
    expect(folder.stdout).toMatch(/^Import [0-9a-f-]{36}\nfinished: 4\/4 \(2 stored, 0 already in Stash, 2 not brought\)\n {2}Type not allowed: 2\n/);
    expect(folder.stdout).toContain("UPDATE IGNORE `phone_photos` SET `link` = REPLACE(SUBSTRING_INDEX(`link`, '?', 1), 'https://cdn.discordapp.com/', 'http://localhost:3000/dc/')");

    const urls = await cli("import:urls", "--server", serverId, "--file", path.join(filesDir, "list.txt"));
    expect(urls.code).toBe(1);
    expect(urls.stderr).toBe("1 URL was refused, so nothing was imported: line 2: 192.168.1.20 is a private address, which Stash does not fetch from");

    const unknown = await cli("import:fivemanage", "--server", "nosuchserver", "--api-key", "k");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^No server with id nosuchserver/);
  });
});
