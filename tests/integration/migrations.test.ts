import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/index.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import { migrations } from "../../db/migrations/index.ts";
import { DEFAULT_FILE_TYPES } from "../../app/lib/file-types.ts";
import { createTestDatabase, usingPostgres } from "../helpers/test-db.ts";

describe("migrations", () => {
  // A fresh embedded database compiles PGlite's WASM first, which a busy 2-core machine stretches past the default timeout.
  it("bring an empty database to the latest schema, and a second run finds nothing to do", { timeout: 90_000 }, async () => {
    const database = await createTestDatabase();
    const handle = await createDb({ databaseUrl: database.url });
    try {
      const first = await migrateToLatest(handle.db);
      expect(first.applied).toEqual(Object.keys(migrations));
      expect((await migrateToLatest(handle.db)).applied).toEqual([]);
      const tables = await sql<{ table_name: string }>`
        SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`.execute(handle.db);
      expect(tables.rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining([
          "users", "identities", "sessions", "auth_tokens", "servers", "retention_rules", "api_keys", "upload_grants",
          "files", "file_variants", "subscriptions", "storage_addons", "account_usage", "audit_logs", "usage_daily", "stripe_events",
        ]),
      );
    } finally {
      await handle.close();
      await database.drop();
    }
  });

  it.runIf(usingPostgres)("let instances that start together apply each migration exactly once", async () => {
    const database = await createTestDatabase();
    const instances = await Promise.all(Array.from({ length: 4 }, () => createDb({ databaseUrl: database.url, poolMax: 2 })));
    try {
      const reports = await Promise.all(instances.map((i) => migrateToLatest(i.db)));
      const applied = reports.flatMap((r) => r.applied);
      expect(applied.sort()).toEqual(Object.keys(migrations).sort());
      const recorded = await sql<{ n: number }>`SELECT count(*)::int AS n FROM kysely_migration`.execute(instances[0].db);
      expect(recorded.rows[0].n).toBe(Object.keys(migrations).length);
    } finally {
      await Promise.all(instances.map((i) => i.close()));
      await database.drop();
    }
  });

  it("give servers still on the old default file types the catalogue's default, and leave chosen lists alone", { timeout: 90_000 }, async () => {
    const database = await createTestDatabase();
    const handle = await createDb({ databaseUrl: database.url });
    try {
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
      const before = await migrator.migrateTo("0003-session-expiry-index");
      expect(before.error).toBeUndefined();
      const user = await sql<{ id: string }>`INSERT INTO users (email) VALUES ('old@example.com') RETURNING id`.execute(handle.db);
      const owner = user.rows[0].id;
      // The first takes the column's old default, exactly as servers created before 0004 have it.
      await sql`INSERT INTO servers (id, user_id, name, webhook_secret) VALUES ('srvdefault01', ${owner}, 'Defaults', 's1')`.execute(handle.db);
      await sql`INSERT INTO servers (id, user_id, name, webhook_secret, allowed_file_types)
        VALUES ('srvcustom001', ${owner}, 'Custom', 's2', '{jpg,jpeg,png,gif,mp4,pdf,webp}')`.execute(handle.db);

      expect((await migrateToLatest(handle.db)).applied[0]).toBe("0004-default-file-types");
      const rows = await sql<{ id: string; allowed_file_types: string[] }>`SELECT id, allowed_file_types FROM servers ORDER BY id`.execute(handle.db);
      expect(rows.rows).toEqual([
        { id: "srvcustom001", allowed_file_types: ["jpg", "jpeg", "png", "gif", "mp4", "pdf", "webp"] },
        { id: "srvdefault01", allowed_file_types: [...DEFAULT_FILE_TYPES] },
      ]);
      expect(DEFAULT_FILE_TYPES).toEqual(expect.arrayContaining(["webp", "webm", "weba", "ogg", "mp3"]));

      // A row inserted without a list after the migration gets the new default from the column too.
      await sql`INSERT INTO servers (id, team_id, name, webhook_secret) VALUES ('srvafter0001', ${owner}, 'After', 's3')`.execute(handle.db);
      const after = await sql<{ allowed_file_types: string[] }>`SELECT allowed_file_types FROM servers WHERE id = 'srvafter0001'`.execute(handle.db);
      expect(after.rows[0].allowed_file_types).toEqual([...DEFAULT_FILE_TYPES]);
    } finally {
      await handle.close();
      await database.drop();
    }
  });

  it("give servers on the wave-2 default (media only) the new default with pdf, and leave chosen lists alone", { timeout: 90_000 }, async () => {
    const database = await createTestDatabase();
    const handle = await createDb({ databaseUrl: database.url });
    try {
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo("0019-api-key-usage")).error).toBeUndefined();
      const user = await sql<{ id: string }>`INSERT INTO users (email) VALUES ('mdt@example.com') RETURNING id`.execute(handle.db);
      const team = user.rows[0].id;
      await sql`INSERT INTO teams (id, name, owner_user_id) VALUES (${team}, 'MDT', ${team})`.execute(handle.db);
      // The first takes the column's wave-2 default, as every server made with the defaults since 0004 has it.
      await sql`INSERT INTO servers (id, team_id, name, webhook_secret) VALUES ('srvwave20001', ${team}, 'Defaults', 's1')`.execute(handle.db);
      await sql`INSERT INTO servers (id, team_id, name, webhook_secret, allowed_file_types) VALUES ('srvchosen001', ${team}, 'Chosen', 's2', '{jpg,png,mp4}')`.execute(handle.db);
      await sql`INSERT INTO servers (id, team_id, name, webhook_secret, allowed_file_types)
        VALUES ('srvnoaac0001', ${team}, 'No AAC', 's3', '{jpg,png,gif,webp,avif,heic,mp4,webm,mov,avi,mkv,mp3,ogg,weba,wav,m4a}')`.execute(handle.db);

      expect((await migrateToLatest(handle.db)).applied).toContain("0020-default-file-types-pdf");
      const rows = await sql<{ id: string; allowed_file_types: string[] }>`SELECT id, allowed_file_types FROM servers ORDER BY id`.execute(handle.db);
      expect(rows.rows).toEqual([
        { id: "srvchosen001", allowed_file_types: ["jpg", "png", "mp4"] },
        { id: "srvnoaac0001", allowed_file_types: ["jpg", "png", "gif", "webp", "avif", "heic", "mp4", "webm", "mov", "avi", "mkv", "mp3", "ogg", "weba", "wav", "m4a"] },
        { id: "srvwave20001", allowed_file_types: [...DEFAULT_FILE_TYPES] },
      ]);
      expect(DEFAULT_FILE_TYPES).toContain("pdf");
      await sql`INSERT INTO servers (id, team_id, name, webhook_secret) VALUES ('srvafter0002', ${team}, 'After', 's4')`.execute(handle.db);
      const after = await sql<{ allowed_file_types: string[] }>`SELECT allowed_file_types FROM servers WHERE id = 'srvafter0002'`.execute(handle.db);
      expect(after.rows[0].allowed_file_types).toEqual([...DEFAULT_FILE_TYPES]);
    } finally {
      await handle.close();
      await database.drop();
    }
  });

  it("queue the MP4 copies that failed before copies aimed at a bitrate again, with room for the reason", { timeout: 90_000 }, async () => {
    const database = await createTestDatabase();
    const handle = await createDb({ databaseUrl: database.url });
    try {
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo("0020-default-file-types-pdf")).error).toBeUndefined();
      const user = await sql<{ id: string }>`INSERT INTO users (email) VALUES ('clips@example.com') RETURNING id`.execute(handle.db);
      const team = user.rows[0].id;
      await sql`INSERT INTO teams (id, name, owner_user_id) VALUES (${team}, 'Clips', ${team})`.execute(handle.db);
      await sql`INSERT INTO servers (id, team_id, name, webhook_secret) VALUES ('srvclips0001', ${team}, 'Clips', 's1')`.execute(handle.db);
      for (const [key, failed] of [["a.webm", true], ["b.webm", false]] as const) {
        await sql`INSERT INTO files (server_id, team_id, storage_key, filename, original_filename, category, mime_type, size_bytes, sha256, is_public, mp4_failed_at)
          VALUES ('srvclips0001', ${team}, ${key}, ${key}, ${key}, 'phone_videos', 'video/webm', 94000, 'x', true, ${failed ? new Date() : null})`.execute(handle.db);
      }

      expect((await migrateToLatest(handle.db)).applied).toContain("0021-mp4-copy-failures");
      const rows = await sql<{ storage_key: string; queued: boolean; failed: boolean; mp4_failure: string | null }>`
        SELECT storage_key, mp4_wanted_at IS NOT NULL AS queued, mp4_failed_at IS NOT NULL AS failed, mp4_failure FROM files ORDER BY storage_key`.execute(handle.db);
      expect(rows.rows).toEqual([
        { storage_key: "a.webm", queued: true, failed: false, mp4_failure: null },
        { storage_key: "b.webm", queued: false, failed: false, mp4_failure: null },
      ]);
    } finally {
      await handle.close();
      await database.drop();
    }
  });

  it("give every account made before teams a personal team with its id, owning its servers, keys, files and plan", { timeout: 90_000 }, async () => {
    const database = await createTestDatabase();
    const handle = await createDb({ databaseUrl: database.url });
    try {
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo("0013-evidence-cases")).error).toBeUndefined();
      // An account as sign-up made it before teams: usage and plan rows, a server, a key and a file.
      const user = await sql<{ id: string }>`INSERT INTO users (email, display_name) VALUES ('solo@example.com', 'Solo Owner') RETURNING id`.execute(handle.db);
      const owner = user.rows[0].id;
      await sql`INSERT INTO account_usage (user_id, used_bytes) VALUES (${owner}, 1234)`.execute(handle.db);
      await sql`INSERT INTO subscriptions (user_id, tier, status) VALUES (${owner}, 'starter', 'active')`.execute(handle.db);
      await sql`INSERT INTO servers (id, user_id, name, webhook_secret) VALUES ('srvsolo00001', ${owner}, 'Solo RP', 's1')`.execute(handle.db);
      await sql`INSERT INTO api_keys (server_id, user_id, name, key_prefix, key_hash) VALUES ('srvsolo00001', ${owner}, 'phone', 'sk_x', 'hash')`.execute(handle.db);
      await sql`INSERT INTO files (server_id, user_id, storage_key, filename, original_filename, category, mime_type, size_bytes, sha256, is_public)
        VALUES ('srvsolo00001', ${owner}, 'srvsolo00001/a.png', 'a.png', 'a.png', 'screenshots', 'image/png', 1234, 'x', true)`.execute(handle.db);

      expect((await migrateToLatest(handle.db)).applied).toContain("0014-teams");
      const teams = await sql<{ id: string; name: string; owner_user_id: string }>`SELECT id, name, owner_user_id FROM teams`.execute(handle.db);
      expect(teams.rows).toEqual([{ id: owner, name: "Solo Owner", owner_user_id: owner }]);
      const members = await sql<{ role: string; permissions: string[] }>`SELECT role, permissions FROM team_members WHERE user_id = ${owner}`.execute(handle.db);
      expect(members.rows).toEqual([{ role: "owner", permissions: expect.arrayContaining(["manage_billing", "delete_media", "manage_members"]) }]);
      for (const table of ["servers", "api_keys", "files", "subscriptions", "account_usage"]) {
        const owned = await sql<{ team_id: string }>`SELECT team_id FROM ${sql.table(table)}`.execute(handle.db);
        expect(owned.rows, table).toEqual([{ team_id: owner }]);
      }
      const plan = await sql<{ tier: string; used_bytes: string }>`SELECT s.tier, u.used_bytes FROM subscriptions s JOIN account_usage u USING (team_id)`.execute(handle.db);
      expect(plan.rows).toEqual([{ tier: "starter", used_bytes: expect.anything() }]);
      expect(Number(plan.rows[0].used_bytes)).toBe(1234);
      // Deleting the account still takes its team and everything the team owns with it.
      await sql`DELETE FROM users WHERE id = ${owner}`.execute(handle.db);
      const left = await sql<{ n: number }>`SELECT (SELECT count(*) FROM teams) + (SELECT count(*) FROM servers) + (SELECT count(*) FROM files) AS n`.execute(handle.db);
      expect(Number(left.rows[0].n)).toBe(0);
    } finally {
      await handle.close();
      await database.drop();
    }
  });

  it("keep the calls keys made before per-key counters, counted from their audit rows by day", { timeout: 90_000 }, async () => {
    const database = await createTestDatabase();
    const handle = await createDb({ databaseUrl: database.url });
    try {
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo("0018-log-forwards-alerts")).error).toBeUndefined();
      const user = await sql<{ id: string }>`INSERT INTO users (email) VALUES ('keys@example.com') RETURNING id`.execute(handle.db);
      const team = user.rows[0].id;
      await sql`INSERT INTO teams (id, name, owner_user_id) VALUES (${team}, 'Keys', ${team})`.execute(handle.db);
      await sql`INSERT INTO servers (id, team_id, name, webhook_secret) VALUES ('srvkeys00001', ${team}, 'Keys', 's1')`.execute(handle.db);
      const key = await sql<{ id: string }>`INSERT INTO api_keys (server_id, team_id, name, key_prefix, key_hash) VALUES ('srvkeys00001', ${team}, 'Cam', 'sk_x', 'hash-1') RETURNING id`.execute(handle.db);
      const keyId = key.rows[0].id;
      for (const at of ["2026-11-01T10:00:00Z", "2026-11-01T23:59:00Z", "2026-11-02T00:01:00Z"]) {
        await sql`INSERT INTO audit_logs (team_id, server_id, api_key_id, action, created_at) VALUES (${team}, 'srvkeys00001', ${keyId}, 'file.upload', ${at})`.execute(handle.db);
      }
      // A portal action of the same team is no key's call.
      await sql`INSERT INTO audit_logs (team_id, server_id, action) VALUES (${team}, 'srvkeys00001', 'server.update')`.execute(handle.db);

      expect((await migrateToLatest(handle.db)).applied).toContain("0019-api-key-usage");
      const rows = await sql<{ day: string; calls: number }>`SELECT to_char(day, 'YYYY-MM-DD') AS day, calls FROM api_key_usage_daily WHERE api_key_id = ${keyId} ORDER BY day`.execute(handle.db);
      expect(rows.rows).toEqual([
        { day: "2026-11-01", calls: 2 },
        { day: "2026-11-02", calls: 1 },
      ]);
    } finally {
      await handle.close();
      await database.drop();
    }
  });
});
