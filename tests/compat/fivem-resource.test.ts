import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import type { TestServer } from "../helpers/server.ts";
import type { FileId } from "../../app/lib/ids.ts";

const run = promisify(execFile);

let server: TestServer;
let account: SeededAccount;

/** Runs one scenario of the harness against the live server and returns its RESULT line. */
async function scenario(name: string, env: Record<string, string> = {}) {
  const { stdout } = await run("lua5.4", ["tests/compat/fivem/harness.lua", "fivem/stash", name], {
    env: { ...process.env, STASH_URL: `${server.url}/`, STASH_API_KEY: account.key, ...env },
  });
  const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
  if (!line) throw new Error(`no result from the Lua harness:\n${stdout}`);
  return JSON.parse(line.slice("RESULT ".length)) as { err: string | null; data: Record<string, unknown> | null };
}

test.beforeAll(async ({ server: started }) => {
  server = started;
  account = await seedAccount(server.ctx, { permissions: ["upload", "read", "logs:write"] });
});

describe("the FiveM resource (fivem/stash) driving the live API", () => {
  it("uploads a data URI and hands back a link that serves the image", async () => {
    const { err, data } = await scenario("data-uri");
    expect(err).toBeNull();
    expect(data).toMatchObject({ success: true, category: "police_evidence", original_filename: "evidence.png" });
    const image = await fetch(String(data!.url));
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toMatch(/^image\//);
    const row = await server.ctx.db.selectFrom("files").select(["player_name", "metadata"]).where("id", "=", String(data!.id) as FileId).executeTakeFirstOrThrow();
    expect(row).toEqual({ player_name: "Officer Tenpenny", metadata: { case: "LS-1042" } });
  });

  it("uploads a player's screenshot tagged with their name and license", async () => {
    const { err, data } = await scenario("screenshot");
    expect(err).toBeNull();
    const row = await server.ctx.db
      .selectFrom("files")
      .select(["player_name", "player_identifier", "category"])
      .where("id", "=", String(data!.id) as FileId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ player_name: "Tommy Vercetti #7", player_identifier: `license:${"ab".repeat(20)}7`, category: "screenshots" });
  });

  it("creates a single-use upload URL that a client can PUT bytes to without the key", async () => {
    const { err, data } = await scenario("presign");
    expect(err).toBeNull();
    const url = String(data!.url);
    expect(url).not.toContain(account.key);
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    const first = await fetch(url, { method: "PUT", body: png, headers: { "Content-Type": "image/png" } });
    expect(first.status).toBe(201);
    const uploaded = await first.json();
    expect(uploaded).toMatchObject({ success: true, category: "phone_photos" });
    const again = await fetch(url, { method: "PUT", body: png });
    expect(again.status).toBe(403);
  });

  it("reports the API's error message when the key is wrong", async () => {
    const { err, data } = await scenario("bad-key");
    expect(err).toMatch(/api key/i);
    expect(data).toMatchObject({ success: false, status: "error" });
  });

  it("logs through exports.stash:log in batches of 100, tags players without their IP, and retries a failed batch", async () => {
    const { err, data } = await scenario("logs", { STASH_FAIL_LOG_POSTS: "1" });
    expect(err).toBeNull();
    // 150 economy entries leave as 100 + 50, the admin one on its own: three posts, the first failed once and was retried.
    expect(data).toEqual({ sent: 3, failed: 1 });
    const rows = await server.ctx.db
      .selectFrom("log_entries as e")
      .innerJoin("log_datasets as d", "d.id", "e.dataset_id")
      .select(["d.name", "e.message", "e.level", "e.resource", "e.metadata"])
      .where("d.server_id", "=", account.serverId)
      .execute();
    expect(rows.filter((r) => r.name === "economy")).toHaveLength(150);
    const first = rows.find((r) => r.message === "Paid $1")!;
    expect(first).toMatchObject({ level: "info", resource: "qb-banking" });
    expect(first.metadata).toMatchObject({ amount: 1, source: 7, player_name: "Tommy Vercetti #7", license: `license:${"ab".repeat(20)}7`, discord: "discord:12345678907" });
    expect(first.metadata).not.toHaveProperty("ip");
    expect(rows.find((r) => r.name === "admin")).toMatchObject({ message: "Noclip used", level: "warn" });
  });
});
