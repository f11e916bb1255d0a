import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../../app/services/app-context.server.ts";
import { sha256Hex } from "../../app/services/platform/ids.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { createUser } from "../../app/services/accounts/users.server.ts";
import { UsageError } from "../../cli/command.ts";
import { keyCreate } from "../../cli/commands/key-create.ts";
import { createDb } from "../../db/index.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import { createTestDatabase } from "../helpers/test-db.ts";
import { findPersonalTeam } from "../../app/services/teams/teams.server.ts";

const run = promisify(execFile);
let dataDir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;

async function cli(...args: string[]) {
  const env = { ...process.env, LOG_LEVEL: "silent", NODE_ENV: "test", DATA_DIR: dataDir, DATABASE_URL: database.url ?? "" };
  try {
    const { stdout, stderr } = await run("npx", ["tsx", "cli/index.ts", ...args], { env });
    return { code: 0, stdout: stdout.trim(), stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout.trim(), stderr: e.stderr };
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-cli-key-"));
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function seed() {
  const handle = await createDb({ databaseUrl: database.url, pgliteDir: path.join(dataDir, "db") });
  try {
    await migrateToLatest(handle.db);
    const user = await createUser(handle.db, { email: "owner@example.com" });
    const teamId = await findPersonalTeam(handle.db, user.id);
    if (!teamId) throw new Error("a new account has no team");
    const server = await createServer(handle.db, { teamId, name: "Los Santos RP" });
    return server.id;
  } finally {
    await handle.close();
  }
}

describe("key:create", () => {
  it("creates a key for a server through the CLI, prints it once and stores only its hash", { timeout: 180_000 }, async () => {
    const serverId = await seed();
    const created = await cli("key:create", "--server", serverId, "--name", "screenshot-basic", "--permissions", "upload,read,delete", "--json");
    expect(created.code, created.stderr).toBe(0);
    const body = JSON.parse(created.stdout);
    expect(body).toMatchObject({ server_id: serverId, name: "screenshot-basic", permissions: ["upload", "read", "delete"] });
    expect(body.api_key).toMatch(/^sk_[0-9A-Za-z]{40}$/);

    const handle = await createDb({ databaseUrl: database.url, pgliteDir: path.join(dataDir, "db") });
    try {
      const rows = await handle.db.selectFrom("api_keys").selectAll().execute();
      expect(rows.map((r) => r.key_hash)).toEqual([sha256Hex(body.api_key)]);
      const ctx = { db: handle.db } as unknown as AppContext;
      await expect(keyCreate.run(ctx, { server: "nope", name: "x" })).rejects.toThrow(UsageError);
      await expect(keyCreate.run(ctx, { server: serverId, name: "x", permissions: "upload,admin" })).rejects.toThrow('Unknown permission "admin"');
      const plain = await keyCreate.run(ctx, { server: serverId, name: "phone" });
      expect(plain.text).toMatch(/^sk_[0-9A-Za-z]{40}$/);
      expect(plain.json).toMatchObject({ permissions: ["upload", "read"] });
    } finally {
      await handle.close();
    }
  });
});
