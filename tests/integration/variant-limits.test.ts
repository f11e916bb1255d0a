/**
 * Image variants are bounded: anyone may ask for presets and any size, but sizes and qualities snap
 * to a small set, each address may start only so many encodes a minute, a file keeps at most
 * VARIANTS_PER_FILE variants made on request (least recently used evicted), and their bytes count
 * toward the owner's usage until they or the file are deleted.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import type { FileRecord } from "../../db/schema.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { gameScreenshot } from "../helpers/images.ts";
import type { TestServer } from "../helpers/server.ts";
import { form } from "../helpers/upload-fixtures.ts";

let server: TestServer;
let account: SeededAccount;
let file: FileRecord;
let fileUrl: string;

const PER_FILE = 10;
const PER_MINUTE = 60;

async function usage() {
  const account_ = await server.ctx.db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", account.teamId).executeTakeFirstOrThrow();
  const srv = await server.ctx.db.selectFrom("servers").select("storage_used_bytes").where("id", "=", account.serverId).executeTakeFirstOrThrow();
  return { account: Number(account_.used_bytes), server: Number(srv.storage_used_bytes) };
}

async function onDemandVariants() {
  return server.ctx.db.selectFrom("file_variants").select(["variant", "storage_key", "size_bytes"]).where("file_id", "=", file.id).where("on_demand", "=", true).execute();
}

function variantBlobs(): string[] {
  const dir = path.join(server.dataDir, "files", `${file.storage_key}.variants`);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

test.beforeAll(async ({ server: started }) => {
  server = started;
  account = await seedAccount(server.ctx, { server: { allowedFileTypes: undefined }, permissions: ["upload", "read", "delete"] });
  const res = await server.request("/api/upload", {
    method: "POST",
    headers: { "x-api-key": account.key },
    body: form([{ field: "file", data: await gameScreenshot(1600, 900), filename: "scene.png", type: "image/png" }]),
  });
  expect(res.status).toBe(201);
  const body = await res.json();
  file = await server.ctx.db.selectFrom("files").selectAll().where("id", "=", body.id).executeTakeFirstOrThrow();
  fileUrl = new URL(body.url).pathname;
});

describe("variants on request", { timeout: 120_000 }, () => {
  it("serves presets to anyone and snaps arbitrary sizes to the allowed set", async () => {
    const small = await server.request(`${fileUrl}?preset=small`, { headers: { "X-Forwarded-For": "198.51.100.1" } });
    expect(small.status).toBe(200);
    const meta = await sharp(Buffer.from(await small.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 640, 360]);

    const odd = await server.request(`${fileUrl}?w=333&q=73&format=webp`, { headers: { "X-Forwarded-For": "198.51.100.1" } });
    expect(odd.status).toBe(200);
    expect((await sharp(Buffer.from(await odd.arrayBuffer())).metadata()).width).toBe(400);
    expect((await onDemandVariants()).map((v) => v.variant).sort()).toEqual(["w400_h0_inside_q70.webp", "w640_h0_inside_q80.webp"]);

    const bad = await server.request(`${fileUrl}?preset=huge`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "invalid_transform", message: "preset must be one of thumb, small, medium, large" });
  });

  it("bounds 1,000 distinct variant requests: encodes per address, variants per file, usage exact", async () => {
    const formats = ["webp", "jpeg", "png", "avif"];
    const fits = ["inside", "cover", "contain"];
    const statuses: number[] = [];
    // Sequential batches, as a scraper would send them; every URL differs from every other.
    for (let batch = 0; batch < 50; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, async (_, j) => {
          const i = batch * 20 + j;
          const query = `w=${1 + i}&h=${1 + ((i * 7) % 900)}&q=${20 + (i % 81)}&fit=${fits[i % 3]}&format=${formats[i % 4]}`;
          const res = await server.request(`${fileUrl}?${query}`, { headers: { "X-Forwarded-For": "203.0.113.50" } });
          await res.arrayBuffer();
          return res.status;
        }),
      );
      statuses.push(...answers);
    }
    const ok = statuses.filter((s) => s === 200).length;
    const limited = statuses.filter((s) => s === 429).length;
    expect(ok + limited).toBe(1000);
    // Only so many encodes a minute from one address (some 200s are variants already stored).
    expect(limited).toBeGreaterThan(0);
    expect(ok).toBeLessThanOrEqual(PER_MINUTE + 50);

    const kept = await onDemandVariants();
    expect(kept.length).toBe(PER_FILE);
    // No blob without its row: evicted variants' bytes are gone from the store.
    const madeAtUpload = await server.ctx.db.selectFrom("file_variants").select("variant").where("file_id", "=", file.id).where("on_demand", "=", false).execute();
    expect(variantBlobs().filter((name) => !madeAtUpload.some((v) => v.variant === name)).sort()).toEqual(
      kept.map((v) => v.storage_key.split("/").pop()).sort(),
    );
    const counted = await usage();
    const expected = Number(file.size_bytes) + kept.reduce((sum, v) => sum + Number(v.size_bytes), 0);
    expect(counted).toEqual({ account: expected, server: expected });

    // Another address is not slowed by that one, and stored variants are served to anyone.
    expect((await server.request(`${fileUrl}?preset=medium`, { headers: { "X-Forwarded-For": "198.51.100.2" } })).status).toBe(200);
    const limitedAnswer = await server.request(`${fileUrl}?w=2000&q=90`, { headers: { "X-Forwarded-For": "203.0.113.50" } });
    expect(limitedAnswer.status).toBe(429);
    expect(limitedAnswer.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("releases the variants' bytes with the file", async () => {
    const deleted = await server.request(`/api/files/${file.id}`, { method: "DELETE", headers: { "x-api-key": account.key } });
    expect(deleted.status).toBe(200);
    expect(await usage()).toEqual({ account: 0, server: 0 });
    expect(variantBlobs()).toEqual([]);
  });
});
