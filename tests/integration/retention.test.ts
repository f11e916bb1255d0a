import { randomUUID } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { formatDate } from "../../app/lib/format.ts";
import { sendExpiryNotices, type ExpiryNotice } from "../../app/services/retention/expiry-notices.server.ts";
import { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import { fileExpiries } from "../../app/services/retention/expiry.server.ts";
import { insertUploadedFiles } from "../../app/services/uploads/upload-commit.server.ts";
import { sweepExpiredFiles, type SweepDeps } from "../../app/services/retention/sweep.server.ts";
import { setTeamPlan } from "../../app/services/billing/subscriptions.server.ts";
import { createTestUser } from "../helpers/auth.ts";
import type { BlobStore } from "../../storage/index.ts";
import { seedFile, seedServer } from "../helpers/billing.ts";
import type { TestServer } from "../helpers/server.ts";
import { usingPostgres } from "../helpers/test-db.ts";
import type { FileId, ServerId, TeamId } from "../../app/lib/ids.ts";

const DAY = 86_400_000;
let server: TestServer;
let deps: SweepDeps;

test.beforeAll(async ({ server: started }) => {
  server = started;
  deps = { db: server.ctx.db, dbKind: server.ctx.dbKind, blobs: server.ctx.blobs, logger: server.ctx.logger };
});

async function owner(tier: "free" | "business" = "free") {
  const { user, teamId } = await createTestUser(server.ctx, { email: `r-${randomUUID()}@example.com` });
  if (tier !== "free") await setTeamPlan(server.ctx.db, teamId, { tier });
  const srv = await seedServer(server.ctx, teamId);
  return { user, teamId, srv };
}

const exists = async (id: FileId) => Boolean(await server.ctx.db.selectFrom("files").select("id").where("id", "=", id).executeTakeFirst());

/** A blob store whose deletes fail (or abort the sweep) after `okDeletes` successful ones. */
function flakyBlobs(okDeletes: number, onLimit: () => void): BlobStore {
  let left = okDeletes;
  return new Proxy(server.ctx.blobs, {
    get(target, prop, receiver) {
      if (prop === "delete") {
        return async (key: string) => {
          if (left-- <= 0) onLimit();
          return target.delete(key);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("an upload's expiry", () => {
  it("gives free-plan files 30 days, paid-plan files none, and applies the sooner category rule", async () => {
    const now = new Date("2026-03-01T12:00:00Z");
    const free = await owner("free");
    const paid = await owner("business");
    await server.ctx.db.insertInto("retention_rules").values([
      { server_id: free.srv.id, category: "cctv", days: 7 },
      { server_id: paid.srv.id, category: "cctv", days: 14 },
      { server_id: free.srv.id, category: "evidence", days: 90 },
    ]).execute();
    // What the upload statement stores in files.expires_at for one file uploaded at `now`.
    const at = async (input: { teamId: TeamId; serverId: ServerId; category: string; keepForever?: boolean }) => {
      const key = `${input.serverId}/${input.category}/${randomUUID()}.png`;
      const rows = await insertUploadedFiles(
        server.ctx.db,
        { source: { via: "api", keyId: null }, serverId: input.serverId, teamId: input.teamId, tier: "free", maxBytes: 1000, allowedTypes: ["png"], defaultPublic: true, stripMetadata: true, convertToWebp: true },
        [{ storageKey: key, filename: key.split("/").pop()!, originalFilename: "a.png", mimeType: "image/png", sizeBytes: 10, sha256: "0".repeat(64), width: 1, height: 1, durationMs: null, variants: [] }],
        { category: input.category, isPublic: true, playerName: null, playerIdentifier: null, metadata: {}, keepForever: input.keepForever ?? false },
        now,
      );
      return rows![0]!.expires_at;
    };
    expect(await at({ teamId: free.teamId, serverId: free.srv.id, category: "screenshots" })).toEqual(new Date(now.getTime() + 30 * DAY));
    expect(await at({ teamId: free.teamId, serverId: free.srv.id, category: "cctv" })).toEqual(new Date(now.getTime() + 7 * DAY));
    expect(await at({ teamId: free.teamId, serverId: free.srv.id, category: "evidence" })).toEqual(new Date(now.getTime() + 30 * DAY));
    expect(await at({ teamId: paid.teamId, serverId: paid.srv.id, category: "screenshots" })).toBeNull();
    expect(await at({ teamId: paid.teamId, serverId: paid.srv.id, category: "cctv" })).toEqual(new Date(now.getTime() + 14 * DAY));
    // Keep forever skips the rule on a paid plan, never the free plan's own 30 days.
    expect(await at({ teamId: paid.teamId, serverId: paid.srv.id, category: "cctv", keepForever: true })).toBeNull();
    expect(await at({ teamId: free.teamId, serverId: free.srv.id, category: "cctv", keepForever: true })).toEqual(new Date(now.getTime() + 7 * DAY));
  });
});

describe("retention sweep", () => {
  it("deletes due files with their blobs, variants and usage, and keeps the rest", async () => {
    const now = new Date();
    const { teamId, srv } = await owner("free");
    await server.ctx.db.insertInto("retention_rules").values({ server_id: srv.id, category: "cctv", days: 7 }).execute();
    const expired = await seedFile(server.ctx, { teamId, serverId: srv.id, sizeBytes: 1000, createdAt: new Date(now.getTime() - 31 * DAY), expiresAt: new Date(now.getTime() - DAY) });
    const byRule = await seedFile(server.ctx, { teamId, serverId: srv.id, category: "cctv", sizeBytes: 2000, createdAt: new Date(now.getTime() - 8 * DAY) });
    const fresh = await seedFile(server.ctx, { teamId, serverId: srv.id, sizeBytes: 3000, expiresAt: new Date(now.getTime() + 29 * DAY) });
    const variantKey = `${srv.id}/thumb-${randomUUID()}.webp`;
    await server.ctx.blobs.put(variantKey, (async function* () { yield Buffer.from("thumb"); })());
    await server.ctx.db.insertInto("file_variants").values({ file_id: expired.id, variant: "thumb", storage_key: variantKey, mime_type: "image/webp", size_bytes: 5, width: 1, height: 1 }).execute();

    const result = await sweepExpiredFiles(deps, { now });
    expect(result.ran).toBe(true);
    expect(result.deletedFiles).toBeGreaterThanOrEqual(2);
    expect(await exists(expired.id)).toBe(false);
    expect(await exists(byRule.id)).toBe(false);
    expect(await exists(fresh.id)).toBe(true);
    expect(await server.ctx.blobs.head(expired.storage_key)).toBeNull();
    expect(await server.ctx.blobs.head(variantKey)).toBeNull();
    expect(await server.ctx.blobs.head(byRule.storage_key)).toBeNull();
    expect(await server.ctx.blobs.head(fresh.storage_key)).not.toBeNull();
    expect((await getAccountQuota(server.ctx.db, teamId)).usedBytes).toBe(3000);
    const s = await server.ctx.db.selectFrom("servers").select("storage_used_bytes").where("id", "=", srv.id).executeTakeFirstOrThrow();
    expect(Number(s.storage_used_bytes)).toBe(3000);
  });

  it("leaves files alone on paid plans, and a controllable clock decides what is due", async () => {
    const now = new Date();
    const { teamId, srv } = await owner("free");
    const file = await seedFile(server.ctx, { teamId, serverId: srv.id, expiresAt: new Date(now.getTime() + 30 * DAY) });
    await sweepExpiredFiles(deps, { now: new Date(now.getTime() + 29 * DAY) });
    expect(await exists(file.id)).toBe(true);
    await setTeamPlan(server.ctx.db, teamId, { tier: "starter" });
    await sweepExpiredFiles(deps, { now: new Date(now.getTime() + 31 * DAY) });
    expect(await exists(file.id)).toBe(true);
  });

  it("is safe to interrupt: a failed blob delete leaves a queued key that the next sweep removes", async () => {
    const now = new Date();
    const { teamId, srv } = await owner("free");
    const a = await seedFile(server.ctx, { teamId, serverId: srv.id, sizeBytes: 100, expiresAt: new Date(now.getTime() - DAY) });
    const b = await seedFile(server.ctx, { teamId, serverId: srv.id, sizeBytes: 200, expiresAt: new Date(now.getTime() - DAY) });
    const keep = await seedFile(server.ctx, { teamId, serverId: srv.id, sizeBytes: 400 });
    const crashing = flakyBlobs(0, () => {
      throw new Error("storage unavailable");
    });
    await expect(sweepExpiredFiles({ ...deps, blobs: crashing }, { now })).rejects.toThrow("storage unavailable");
    // The first file's row and usage went in one commit; its bytes wait in the queue.
    const gone = [a, b];
    const remaining = await server.ctx.db.selectFrom("files").select("id").where("team_id", "=", teamId).execute();
    const queued = await server.ctx.db.selectFrom("blob_deletions").select("storage_key").execute();
    expect(queued.length).toBe(1);
    expect(remaining.length).toBe(2);
    const used = (await getAccountQuota(server.ctx.db, teamId)).usedBytes;
    const remainingSizes = await server.ctx.db.selectFrom("files").select("size_bytes").where("team_id", "=", teamId).execute();
    expect(used).toBe(remainingSizes.reduce((n, f) => n + Number(f.size_bytes), 0));
    expect(await server.ctx.blobs.head(queued[0]!.storage_key)).not.toBeNull();

    await sweepExpiredFiles(deps, { now });
    for (const f of gone) {
      expect(await exists(f.id)).toBe(false);
      expect(await server.ctx.blobs.head(f.storage_key)).toBeNull();
    }
    expect(await exists(keep.id)).toBe(true);
    expect(await server.ctx.db.selectFrom("blob_deletions").select("storage_key").execute()).toEqual([]);
    expect((await getAccountQuota(server.ctx.db, teamId)).usedBytes).toBe(400);
  });

  it("stops between files when aborted, leaving every file either wholly kept or wholly deleted", async () => {
    const now = new Date();
    const { teamId, srv } = await owner("free");
    const files = [];
    for (let i = 0; i < 4; i++) files.push(await seedFile(server.ctx, { teamId, serverId: srv.id, sizeBytes: 10 + i, expiresAt: new Date(now.getTime() - DAY) }));
    const controller = new AbortController();
    const aborting = flakyBlobs(1, () => controller.abort());
    const result = await sweepExpiredFiles({ ...deps, blobs: aborting }, { now, signal: controller.signal });
    expect(result.deletedFiles).toBeLessThan(4);
    const left = await server.ctx.db.selectFrom("files").select(["id", "size_bytes"]).where("team_id", "=", teamId).execute();
    expect(left.length).toBe(4 - result.deletedFiles);
    expect((await getAccountQuota(server.ctx.db, teamId)).usedBytes).toBe(left.reduce((n, f) => n + Number(f.size_bytes), 0));
    await sweepExpiredFiles(deps, { now });
    for (const f of files) expect(await server.ctx.blobs.head(f.storage_key)).toBeNull();
    expect((await getAccountQuota(server.ctx.db, teamId)).usedBytes).toBe(0);
  });

  describe.runIf(usingPostgres)("on PostgreSQL", () => {
    it("runs on one instance at a time (advisory lock)", async () => {
      const now = new Date();
      const { teamId, srv } = await owner("free");
      const file = await seedFile(server.ctx, { teamId, serverId: srv.id, expiresAt: new Date(now.getTime() - DAY) });
      const other = new pg.Client({ connectionString: server.ctx.config.DATABASE_URL });
      await other.connect();
      try {
        await other.query("SELECT pg_advisory_lock(7060001)");
        expect(await sweepExpiredFiles(deps, { now })).toEqual({ ran: false, deletedFiles: 0, deletedBlobs: 0 });
        expect(await exists(file.id)).toBe(true);
        await other.query("SELECT pg_advisory_unlock(7060001)");
        expect((await sweepExpiredFiles(deps, { now })).ran).toBe(true);
        expect(await exists(file.id)).toBe(false);
      } finally {
        await other.end();
      }
    });

    it("mails expiry warnings only from the instance that swept, after its sweep, under its lock", async () => {
      const now = new Date();
      const { teamId, srv } = await owner("free");
      await seedFile(server.ctx, { teamId, serverId: srv.id, expiresAt: new Date(now.getTime() + DAY) });
      const other = new pg.Client({ connectionString: server.ctx.config.DATABASE_URL });
      await other.connect();
      const mailed: Date[] = [];
      const afterSweep = async (at: Date) => {
        // Still under the lock: a second instance trying now is turned away.
        const probe = await other.query("SELECT pg_try_advisory_lock(7060001) AS locked");
        expect(probe.rows[0].locked).toBe(false);
        mailed.push(at);
      };
      try {
        await other.query("SELECT pg_advisory_lock(7060001)");
        expect((await sweepExpiredFiles(deps, { now, afterSweep })).ran).toBe(false);
        expect(mailed).toEqual([]);
        await other.query("SELECT pg_advisory_unlock(7060001)");
        expect((await sweepExpiredFiles(deps, { now, afterSweep })).ran).toBe(true);
        expect(mailed).toEqual([now]);
      } finally {
        await other.end();
      }
    });
  });
});

describe("expiry warnings", () => {
  it("flags files expiring within 3 days and mails each owner once", async () => {
    const now = new Date();
    const { user, teamId, srv } = await owner("free");
    await server.ctx.db.insertInto("retention_rules").values({ server_id: srv.id, category: "cctv", days: 5 }).execute();
    const soon = await seedFile(server.ctx, { teamId, serverId: srv.id, expiresAt: new Date(now.getTime() + 2 * DAY) });
    const byRule = await seedFile(server.ctx, { teamId, serverId: srv.id, category: "cctv", createdAt: new Date(now.getTime() - 3 * DAY) });
    const later = await seedFile(server.ctx, { teamId, serverId: srv.id, expiresAt: new Date(now.getTime() + 20 * DAY) });
    const expiries = await fileExpiries(server.ctx.db, [soon.id, byRule.id, later.id]);
    expect(expiries.get(byRule.id)?.getTime()).toBe(byRule.created_at.getTime() + 5 * DAY);

    const sent: ExpiryNotice[] = [];
    const options = { now, appName: "Stash", appUrl: server.url, send: async (n: ExpiryNotice) => void sent.push(n) };
    await sendExpiryNotices(server.ctx.db, options);
    const mine = sent.filter((n) => n.to === user.email);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.subject).toBe("2 files on Stash will be deleted soon");
    expect(mine[0]!.text).toContain(soon.original_filename);
    expect(mine[0]!.text).toContain(byRule.original_filename);
    expect(mine[0]!.text).not.toContain(later.original_filename);
    // Dates in the mail read as they do in the portal.
    expect(mine[0]!.text).toContain(`${soon.original_filename} (deleted after ${formatDate(expiries.get(soon.id)!)})`);

    await sendExpiryNotices(server.ctx.db, options);
    expect(sent.filter((n) => n.to === user.email)).toHaveLength(1);
  });

  it("never warns about a file already due: the sweep deletes it, no e-mail promises it a future", async () => {
    const now = new Date();
    const { user, teamId, srv } = await owner("free");
    const due = await seedFile(server.ctx, { teamId, serverId: srv.id, expiresAt: new Date(now.getTime() - 60_000) });
    const soon = await seedFile(server.ctx, { teamId, serverId: srv.id, expiresAt: new Date(now.getTime() + DAY) });
    const sent: ExpiryNotice[] = [];
    await sendExpiryNotices(server.ctx.db, { now, appName: "Stash", appUrl: server.url, send: async (n) => void sent.push(n) });
    const mine = sent.filter((n) => n.to === user.email);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.subject).toBe("1 file on Stash will be deleted soon");
    expect(mine[0]!.text).toContain(soon.original_filename);
    expect(mine[0]!.text).not.toContain(due.original_filename);
  });

  it("a failed send marks nothing, so the next run tries again", async () => {
    const now = new Date();
    const { user, teamId, srv } = await owner("free");
    await seedFile(server.ctx, { teamId, serverId: srv.id, expiresAt: new Date(now.getTime() + DAY) });
    const failing = { now, appName: "Stash", appUrl: server.url, send: async () => { throw new Error("smtp down"); } };
    await expect(sendExpiryNotices(server.ctx.db, failing)).rejects.toThrow("smtp down");
    const sent: ExpiryNotice[] = [];
    await sendExpiryNotices(server.ctx.db, { ...failing, send: async (n) => void sent.push(n) });
    expect(sent.filter((n) => n.to === user.email)).toHaveLength(1);
  });
});
