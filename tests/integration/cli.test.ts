import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_FILE_TYPES } from "../../app/lib/file-types.ts";
import { createDb, type DbHandle } from "../../db/index.ts";
import { freePort } from "../helpers/server.ts";
import { createTestDatabase } from "../helpers/test-db.ts";
import type { ServerId } from "../../app/lib/ids.ts";

const run = promisify(execFile);

let dataDir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;

async function cli(...args: string[]) {
  return cliWith({ DATA_DIR: dataDir, DATABASE_URL: database.url ?? "" }, ...args);
}

async function cliWith(overrides: Record<string, string>, ...args: string[]) {
  const env = { ...process.env, LOG_LEVEL: "silent", NODE_ENV: "test", ...overrides };
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "cli/index.ts", ...args], { env });
    return { code: 0, stdout: stdout.trim(), stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout.trim(), stderr: e.stderr };
  }
}

async function openDb(): Promise<DbHandle> {
  return createDb({ databaseUrl: database.url, pgliteDir: path.join(dataDir, "db") });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-cli-"));
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// Each case starts the real CLI process (and its database) several times; allow for a busy machine.
describe("operator CLI", { timeout: 180_000 }, () => {
  it("creates a user, a server for them and sets their plan", async () => {
    const user = await cli("user:create", "--email", "Owner@Example.com", "--password", "hunter22", "--role", "admin", "--verified", "--json");
    expect(user.code).toBe(0);
    expect(JSON.parse(user.stdout)).toMatchObject({ email: "owner@example.com", role: "admin", verified: true, display_name: "owner" });

    const server = await cli("server:create", "--owner", "owner@example.com", "--name", "Los Santos RP", "--private");
    expect(server.code).toBe(0);
    const [serverId, hookLine] = server.stdout.split("\n");
    expect(serverId).toMatch(/^[0-9a-z]{12}$/);
    expect(hookLine).toMatch(new RegExp(`^Webhook URL: https?://.+/api/webhooks/${serverId}/\\w+$`));

    const plan = await cli("plan:set", "--email", "owner@example.com", "--tier", "professional", "--json");
    expect(JSON.parse(plan.stdout)).toEqual({ email: "owner@example.com", team: { id: expect.any(String), name: "owner" }, tier: "professional", storage_quota_gb: 100 });
    const teams = JSON.parse((await cli("team:list", "--json")).stdout) as Array<{ id: string; owner: string; members: number; tier: string }>;
    expect(teams).toEqual([expect.objectContaining({ owner: "owner@example.com", members: 1, tier: "professional" })]);

    const db = await openDb();
    try {
      const row = await db.db.selectFrom("servers").innerJoin("teams", "teams.id", "servers.team_id").innerJoin("users", "users.id", "teams.owner_user_id")
        .select(["servers.name", "servers.default_public", "users.email"]).where("servers.id", "=", serverId as ServerId).executeTakeFirstOrThrow();
      expect(row).toEqual({ name: "Los Santos RP", default_public: false, email: "owner@example.com" });
      const sub = await db.db.selectFrom("subscriptions").select("tier").executeTakeFirstOrThrow();
      expect(sub.tier).toBe("professional");
    } finally {
      await db.close();
    }

    const list = await cli("user:list", "--json");
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ email: "owner@example.com", role: "admin", tier: "professional", used_bytes: 0 })]);
  });

  it("prints usage and exits non-zero on bad arguments, changing nothing", async () => {
    const missing = await cli("user:create", "--email", "a@b.co");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Missing --password");
    expect(missing.stderr).toContain("Usage: npm run cli -- user:create");

    const badRole = await cli("user:role", "--email", "owner@example.com", "--role", "boss");
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain("--role must be one of user, moderator, admin");

    const unknown = await cli("frobnicate");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown command: frobnicate");

    const badFlag = await cli("user:list", "--colour");
    expect(badFlag.code).toBe(2);

    const duplicate = await cli("user:create", "--email", "OWNER@example.com", "--password", "hunter22");
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("User already registered");

    const noOwner = await cli("server:create", "--owner", "nobody@example.com", "--name", "X");
    expect(noOwner.code).toBe(2);

    const list = await cli("user:list", "--json");
    expect(JSON.parse(list.stdout)).toHaveLength(1);
  });

  // About fifteen CLI runs, each opening the database.
  it("creates a server with the catalogue's default types and prints its webhook URL; shows and updates it", { timeout: 400_000 }, async () => {
    const appUrl = "https://stash.example.test";
    const as = (...args: string[]) => cliWith({ DATA_DIR: dataDir, DATABASE_URL: database.url ?? "", APP_URL: appUrl }, ...args);
    const created = await as("server:create", "--owner", "owner@example.com", "--name", "Paleto Bay", "--json");
    expect(created.code).toBe(0);
    const server = JSON.parse(created.stdout);
    const db = await openDb();
    let row;
    try {
      row = await db.db.selectFrom("servers").selectAll().where("id", "=", server.id).executeTakeFirstOrThrow();
    } finally {
      await db.close();
    }
    // The same URL the server page shows, and the one the webhook route accepts.
    expect(server.webhook_url).toBe(`${appUrl}/api/webhooks/${row.id}/${row.webhook_secret}`);
    expect(row.allowed_file_types).toEqual([...DEFAULT_FILE_TYPES]);

    const shown = await as("server:show", "--id", server.id, "--json");
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({
      id: server.id,
      name: "Paleto Bay",
      status: "active",
      webhook_url: server.webhook_url,
      allowed_types: [...DEFAULT_FILE_TYPES],
      allowed_types_by_group: [
        { label: "Images", types: ["jpg", "png", "gif", "webp", "avif", "heic"] },
        { label: "Video", types: ["mp4", "webm", "mov", "avi", "mkv"] },
        { label: "Audio", types: ["mp3", "ogg", "weba", "wav", "m4a", "aac"] },
        { label: "Documents", types: ["pdf"] },
      ],
      max_file_size_mb: 50,
      default_public: true,
    });

    const updated = await as("server:update", "--id", server.id, "--allowed-types", "audio,JPEG,webp,ytd", "--max-file-size-mb", "200", "--default-public", "false", "--status", "maintenance");
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain(`Webhook URL:       ${server.webhook_url}`);
    expect(updated.stdout).toContain("Images: jpg, webp");
    expect(updated.stdout).toContain("Audio: mp3, ogg, weba, wav, m4a, aac");
    expect(updated.stdout).toContain("Game resources: ytd");
    expect(updated.stdout).toContain("Max file size:     200 MB");
    expect(updated.stdout).toContain("Default visibility: private");
    expect(updated.stdout).toContain("Status:            maintenance");

    const after = { allowed_types: ["jpg", "webp", "mp3", "ogg", "weba", "wav", "m4a", "aac", "ytd"], max_file_size_mb: 200, default_public: false, status: "maintenance" };
    expect(JSON.parse((await as("server:show", "--id", server.id, "--json")).stdout)).toMatchObject(after);

    // Every bad value is refused with the usage and status 2, and nothing changes, not even the good values beside it.
    const refusals: [string[], string][] = [
      [["--allowed-types", "jpg,exe"], "Unknown file type exe"],
      [["--allowed-types", ","], "Select at least one file type"],
      [["--max-file-size-mb", "12.5", "--status", "active"], "Please enter a valid file size (1-10000 MB)"],
      [["--default-public", "yes"], "--default-public must be true or false"],
      [["--status", "paused", "--max-file-size-mb", "10"], "--status must be one of active, inactive, maintenance"],
      [[], "Nothing to change"],
    ];
    for (const [args, message] of refusals) {
      const refused = await as("server:update", "--id", server.id, ...args);
      expect(refused.code, args.join(" ")).toBe(2);
      expect(refused.stderr).toContain(message);
      expect(refused.stderr).toContain("Usage: npm run cli -- server:update");
    }
    const unknownServer = await as("server:update", "--id", "nosuchserver", "--status", "active");
    expect(unknownServer.code).toBe(2);
    expect(unknownServer.stderr).toContain("No server with id nosuchserver");
    expect(JSON.parse((await as("server:show", "--id", server.id, "--json")).stdout)).toMatchObject(after);
  });

  it("purges expired sessions and says how many", async () => {
    const db = await openDb();
    let live: string;
    try {
      const user = await db.db.selectFrom("users").select("id").where("email", "=", "owner@example.com").executeTakeFirstOrThrow();
      const hour = 3_600_000;
      const rows = [-hour, -1000, -30 * 24 * hour, hour].map((offset, i) => ({ id: `cli-session-${i}`, user_id: user.id, expires_at: new Date(Date.now() + offset) }));
      await db.db.insertInto("sessions").values(rows).execute();
      live = rows[3].id;
    } finally {
      await db.close();
    }

    const purged = await cli("session:purge", "--json");
    expect(purged.code).toBe(0);
    expect(JSON.parse(purged.stdout)).toEqual({ deleted: 3 });
    const again = await cli("session:purge");
    expect(again.stdout).toBe("Deleted 0 expired sessions");

    const after = await openDb();
    try {
      const left = await after.db.selectFrom("sessions").select("id").execute();
      expect(left.map((r) => r.id)).toEqual([live]);
    } finally {
      await after.close();
    }
  });

  // `docker compose exec app npm run cli …` runs with the app's REDIS_URL; the CLI must still exit.
  it("exits when REDIS_URL is set, whether Redis answers or not", async () => {
    const closedPort = await freePort();
    for (const redisUrl of ["redis://127.0.0.1:6379", `redis://127.0.0.1:${closedPort}`]) {
      const started = Date.now();
      const result = await cliWith({ DATA_DIR: dataDir, DATABASE_URL: database.url ?? "", REDIS_URL: redisUrl }, "session:purge", "--json");
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ deleted: 0 });
      expect(Date.now() - started).toBeLessThan(60_000);
    }
  });

  it("refuses, clearly, to open an embedded database a running server holds", async () => {
    const embeddedDir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-cli-held-"));
    const held = await createDb({ pgliteDir: path.join(embeddedDir, "db") });
    try {
      const result = await cliWith({ DATA_DIR: embeddedDir, DATABASE_URL: "" }, "user:list");
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/in use by another Stash process \(pid \d+\)/);
    } finally {
      await held.close();
      fs.rmSync(embeddedDir, { recursive: true, force: true });
    }
  });
});
