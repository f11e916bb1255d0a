import { deleteServerWithFiles } from "../../app/services/files/delete-files.server.ts";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { GB } from "../../app/lib/plans.ts";
import { parseServerForm, serverFormSchema, type ServerFormValues } from "../../app/lib/server-form.ts";
import { getAdminTotals, getSystemHealth, listAllServers } from "../../app/services/stats/admin-stats.server.ts";
import { getAnalytics } from "../../app/services/stats/analytics.server.ts";
import { getDashboardStats } from "../../app/services/stats/dashboard-stats.server.ts";
import { getAccountQuota, reserveQuota } from "../../app/services/billing/quota.server.ts";
import { deleteRetentionRule, listRetentionRules, upsertRetentionRule } from "../../app/services/retention/rules.server.ts";
import {
  createServerWithinQuota,
  rotateWebhookSecret,
  setDefaultVisibility,
  updateServerSettings,
} from "../../app/services/servers/server-settings.server.ts";
import { createTestUser } from "../helpers/auth.ts";
import type { TestServer } from "../helpers/server.ts";
import type { ServerId, TeamId } from "../../app/lib/ids.ts";

let server: TestServer;
let seq = 0;

test.beforeAll(async ({ server: started }) => {
  server = started;
});
const values = (overrides: Partial<ServerFormValues> = {}): ServerFormValues => ({
  name: "Los Santos RP",
  description: null,
  endpointUrl: null,
  maxFileSizeMb: 50,
  allowedFileTypes: ["jpg", "png"],
  ...overrides,
});

/** A new account and its own team. */
async function newTeam() {
  seq += 1;
  const { user, teamId } = await createTestUser(server.ctx, { email: `portal-${seq}-${Date.now()}@example.com`, displayName: `Owner ${seq}` });
  return { userId: user.id, teamId };
}

/** A stored file as the upload pipeline leaves it: blob, row, and its bytes reserved. */
async function seedFile(teamId: TeamId, serverId: ServerId, bytes: number, extra: { category?: string; player?: string; createdAt?: Date } = {}) {
  seq += 1;
  const key = `${serverId}/${extra.category ?? "other"}/f${seq}.png`;
  await server.ctx.blobs.put(key, Readable.from([Buffer.alloc(bytes, 1)]));
  expect(await reserveQuota(server.ctx.db, teamId, bytes)).toBe(true);
  return server.ctx.db
    .insertInto("files")
    .values({
      server_id: serverId,
      team_id: teamId,
      storage_key: key,
      filename: `f${seq}.png`,
      original_filename: `photo ${seq}.png`,
      category: extra.category ?? "other",
      mime_type: "image/png",
      size_bytes: bytes,
      sha256: "0".repeat(64),
      is_public: true,
      player_name: extra.player ?? null,
      created_at: extra.createdAt ?? new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

describe("server form schema", () => {
  const form = (fields: Record<string, string | string[]>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) for (const item of [v].flat()) data.append(k, item);
    return data;
  };

  it("accepts a valid form, sanitises text and defaults a blank size to 50", () => {
    const result = parseServerForm(
      form({ name: "  My <b>Server</b>_1 ", description: "<script>x()</script>Hello", endpointUrl: "", maxFileSizeMb: "", allowedFileTypes: ["png", "jpg"] }),
      "Error creating server",
    );
    expect(result).toEqual({
      ok: true,
      data: { name: "My Server_1", description: "Hello", endpointUrl: null, maxFileSizeMb: 50, allowedFileTypes: ["jpg", "png"] },
    });
  });

  it("gives the spec's messages and toast titles", () => {
    const bad = (fields: Record<string, string | string[]>) => {
      const result = parseServerForm(form({ name: "ok", allowedFileTypes: "jpg", ...fields }), "Error creating server");
      if (result.ok) throw new Error("expected failure");
      return result.first;
    };
    expect(bad({ name: "bad/name!" })).toEqual({
      field: "name",
      message: "Server name can only contain letters, numbers, spaces, hyphens, and underscores",
      toastTitle: "Invalid server name",
    });
    expect(bad({ name: "x".repeat(101) }).toastTitle).toBe("Invalid server name");
    expect(bad({ endpointUrl: "not a url" })).toMatchObject({ message: "Please enter a valid URL", toastTitle: "Invalid URL" });
    expect(bad({ endpointUrl: "javascript:alert(1)" }).toastTitle).toBe("Invalid URL");
    for (const size of ["0", "10001", "2.5", "abc", "-3"]) {
      expect(bad({ maxFileSizeMb: size })).toMatchObject({ message: "Please enter a valid file size (1-10000 MB)", toastTitle: "Invalid file size" });
    }
    expect(bad({ allowedFileTypes: "exe" }).field).toBe("allowedFileTypes");
  });

  it("is the same schema object the browser uses", () => {
    expect(serverFormSchema.safeParse({ name: "A", allowedFileTypes: ["txt"] }).success).toBe(true);
  });
});

describe("server management", () => {
  it("refuses a server that would pass the quota, with the spec's message, and creates nothing", async () => {
    const user = await newTeam();
    await reserveQuota(server.ctx.db, user.teamId, Math.round(4.98 * GB));
    await expect(createServerWithinQuota(server.ctx.db, user.teamId, values({ maxFileSizeMb: 50 }))).rejects.toMatchObject({
      code: "server_quota_exceeded",
      message: "Creating this server would exceed your storage quota of 5GB. Current usage: 4.98GB",
    });
    await expect(createServerWithinQuota(server.ctx.db, user.teamId, values())).rejects.toThrow(
      "Creating this server would exceed your storage quota of 5GB. Current usage: 4.98GB",
    );
    const count = await server.ctx.db.selectFrom("servers").select((eb) => eb.fn.countAll().as("n")).where("team_id", "=", user.teamId).executeTakeFirst();
    expect(Number(count?.n)).toBe(0);
    const small = await createServerWithinQuota(server.ctx.db, user.teamId, values({ maxFileSizeMb: 10 }));
    expect(small.max_file_size_mb).toBe(10);
  });

  it("updates only the owner's server, toggles visibility and rotates the webhook secret", async () => {
    const [owner, other] = [await newTeam(), await newTeam()];
    const created = await createServerWithinQuota(server.ctx.db, owner.teamId, values());
    expect(await updateServerSettings(server.ctx.db, other.teamId, created.id, values({ name: "Stolen" }))).toBeUndefined();
    const updated = await updateServerSettings(server.ctx.db, owner.teamId, created.id, values({ name: "Renamed", maxFileSizeMb: 80 }));
    expect(updated).toMatchObject({ name: "Renamed", max_file_size_mb: 80 });
    expect(await setDefaultVisibility(server.ctx.db, other.teamId, created.id, false)).toBe(false);
    expect(await setDefaultVisibility(server.ctx.db, owner.teamId, created.id, false)).toBe(true);
    const secret = await rotateWebhookSecret(server.ctx.db, owner.teamId, created.id);
    expect(secret).toMatch(/^[0-9A-Za-z]{40}$/);
    expect(secret).not.toBe(created.webhook_secret);
    expect(await rotateWebhookSecret(server.ctx.db, other.teamId, created.id)).toBeUndefined();
  });

  it("keeps one retention rule per category", async () => {
    const owner = await newTeam();
    const created = await createServerWithinQuota(server.ctx.db, owner.teamId, values());
    await upsertRetentionRule(server.ctx.db, created.id, { category: "security_camera", days: 30 });
    await upsertRetentionRule(server.ctx.db, created.id, { category: "security_camera", days: 7 });
    await upsertRetentionRule(server.ctx.db, created.id, { category: "phone_camera", days: 90 });
    expect(await listRetentionRules(server.ctx.db, created.id)).toEqual([
      { category: "phone_camera", days: 90 },
      { category: "security_camera", days: 7 },
    ]);
    expect(await deleteRetentionRule(server.ctx.db, created.id, "phone_camera")).toBe(true);
    expect(await listRetentionRules(server.ctx.db, created.id)).toHaveLength(1);
  });

  it("deletes a server with its files' rows and blobs and releases their storage", async () => {
    const [owner, other] = [await newTeam(), await newTeam()];
    const doomed = await createServerWithinQuota(server.ctx.db, owner.teamId, values({ name: "Doomed" }));
    const kept = await createServerWithinQuota(server.ctx.db, owner.teamId, values({ name: "Kept" }));
    const a = await seedFile(owner.teamId, doomed.id, 3000);
    await seedFile(owner.teamId, doomed.id, 2000);
    const survivor = await seedFile(owner.teamId, kept.id, 1000);
    expect((await getAccountQuota(server.ctx.db, owner.teamId)).usedBytes).toBe(6000);

    expect(await deleteServerWithFiles(server.ctx.db, server.ctx.blobs, doomed.id, { ownerId: other.teamId })).toBeUndefined();
    const result = await deleteServerWithFiles(server.ctx.db, server.ctx.blobs, doomed.id, { ownerId: owner.teamId });
    expect(result).toMatchObject({ filesDeleted: 2, bytesReleased: 5000, blobErrors: 0 });
    expect(await server.ctx.blobs.head(a.storage_key)).toBeNull();
    expect(await server.ctx.blobs.head(survivor.storage_key)).not.toBeNull();
    expect((await getAccountQuota(server.ctx.db, owner.teamId)).usedBytes).toBe(1000);
    const rows = await server.ctx.db.selectFrom("files").select("id").where("team_id", "=", owner.teamId).execute();
    expect(rows.map((r) => r.id)).toEqual([survivor.id]);
    expect(await deleteServerWithFiles(server.ctx.db, server.ctx.blobs, doomed.id)).toBeUndefined();
  });
});

describe("stats", () => {
  it("dashboard stats count the user's servers, files, bytes, quota and 30 days of API calls", async () => {
    const owner = await newTeam();
    const s = await createServerWithinQuota(server.ctx.db, owner.teamId, values());
    await seedFile(owner.teamId, s.id, 1500);
    const today = new Date().toISOString().slice(0, 10);
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
    await server.ctx.db
      .insertInto("usage_daily")
      .values([
        { server_id: s.id, day: today, api_calls: 7, downloads: 2, download_bytes: 3000, uploads: 1, upload_bytes: 1500 },
        { server_id: s.id, day: old, api_calls: 100 },
      ])
      .execute();
    expect(await getDashboardStats(server.ctx.db, owner.teamId)).toEqual({
      totalServers: 1,
      apiKeys: 0,
      mediaFiles: 1,
      storageUsedBytes: 1500,
      quotaGb: 5,
      apiCalls30d: 7,
    });

    const analytics = await getAnalytics(server.ctx.db, owner.teamId, 7);
    expect(analytics.hasData).toBe(true);
    expect(analytics.days).toHaveLength(7);
    expect(analytics.days.at(-1)).toMatchObject({ day: today, uploads: 1, downloads: 2, downloadBytes: 3000, storedBytes: 1500 });
    expect(analytics.totals).toMatchObject({ files: 1, bytes: 1500, monthlyUploads: 1 });
    expect(analytics.categories).toEqual([{ name: "Other", files: 1, bytes: 1500 }]);
  });

  it("analytics are empty for a new account", async () => {
    const owner = await newTeam();
    const analytics = await getAnalytics(server.ctx.db, owner.teamId, 30);
    expect(analytics.hasData).toBe(false);
    expect(analytics.days).toHaveLength(30);
    expect(analytics.totals).toEqual({ files: 0, bytes: 0, monthlyUploads: 0, storagePercent: 0 });
  });

  it("admin totals, server list and live health", async () => {
    const owner = await newTeam();
    await server.ctx.db.updateTable("users").set({ last_sign_in_at: new Date() }).where("id", "=", owner.userId).execute();
    const s = await createServerWithinQuota(server.ctx.db, owner.teamId, values({ name: "Admin Seen", endpointUrl: "https://play.example.com/x" }));
    await seedFile(owner.teamId, s.id, 700, { player: "Niko" });
    const totals = await getAdminTotals(server.ctx.db);
    expect(totals.activeUsers).toBeGreaterThanOrEqual(1);
    expect(totals.totalServers).toBeGreaterThanOrEqual(1);
    const [first] = await listAllServers(server.ctx.db, 1);
    expect(first).toMatchObject({ id: s.id, name: "Admin Seen", fileCount: 1, usedBytes: 700, ownerEmail: expect.stringContaining("@") });
    const health = await getSystemHealth(server.ctx);
    expect(health.map((h) => [h.name, h.ok])).toEqual([
      ["Database", true],
      ["Storage", true],
      ["API", true],
      ["Stored files", true],
    ]);
  });
});
