import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect } from "vitest";
import { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import { MP4_COPY_VARIANT, variantStorageKey } from "../../app/services/media/transforms.server.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { form } from "../helpers/upload-fixtures.ts";
import type { FileId } from "../../app/lib/ids.ts";

let server: TestServer;
test.beforeAll(async ({ server: started }) => {
  server = started;
});

/** What LB Phone's camera records in the game's Chromium: VP9 and Opus in WebM at about 400 kbit/s. */
function phoneClip(seconds = 6): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-phone-"));
  const out = path.join(dir, "clip.webm");
  try {
    execFileSync("ffmpeg", [
      "-v", "error",
      "-f", "lavfi", "-i", `testsrc2=size=640x360:rate=30`,
      "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
      "-t", String(seconds),
      "-c:v", "libvpx-vp9", "-b:v", "400k", "-deadline", "realtime", "-cpu-used", "8",
      "-c:a", "libopus", "-b:a", "48k",
      "-y", out,
    ]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const SAFARI = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

async function uploadClip(owner: SeededAccount, clip: Buffer) {
  const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": owner.key }, body: form([{ field: "file", data: clip, filename: "bodycam.webm" }]) });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: FileId; url: string; file_size: number };
}

const fileRow = (id: FileId) => server.ctx.db.selectFrom("files").select(["mp4_wanted_at", "mp4_failed_at"]).where("id", "=", id).executeTakeFirst();
const copyRow = (id: FileId) => server.ctx.db.selectFrom("file_variants").selectAll().where("file_id", "=", id).where("variant", "=", MP4_COPY_VARIANT).executeTakeFirst();

function probe(bytes: Buffer): { codecs: string[]; duration: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-probe-"));
  try {
    fs.writeFileSync(path.join(dir, "f.mp4"), bytes);
    const out = JSON.parse(execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name:format=duration", "-of", "json", path.join(dir, "f.mp4")]).toString()) as {
      streams: { codec_name: string }[];
      format: { duration: string };
    };
    return { codecs: out.streams.map((s) => s.codec_name), duration: Number(out.format.duration) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("MP4 copies of videos", () => {
  test("a paid plan's WebM clip gets a faststart H.264/AAC copy in the background, served with Range to Safari and format=mp4", async () => {
    const owner = await seedAccount(server.ctx, { server: { allowedFileTypes: ["webm", "mp4"] }, permissions: ["upload", "read", "delete"] });
    await server.ctx.db.updateTable("subscriptions").set({ tier: "starter", status: "active" }).where("team_id", "=", owner.teamId).execute();
    const clip = phoneClip();
    const file = await uploadClip(owner, clip);
    expect((await fileRow(file.id))?.mp4_wanted_at).not.toBeNull();
    const before = await getAccountQuota(server.ctx.db, owner.teamId);

    await server.runJob(BACKGROUND_JOBS.videoCopies);
    const copy = (await copyRow(file.id))!;
    expect(copy).toMatchObject({ mime_type: "video/mp4", width: 640, height: 360 });
    expect(Number(copy.size_bytes)).toBeLessThanOrEqual(clip.length * 1.5);
    expect((await fileRow(file.id))?.mp4_wanted_at).toBeNull();
    // The copy's bytes count toward usage.
    expect((await getAccountQuota(server.ctx.db, owner.teamId)).usedBytes).toBe(before.usedBytes + Number(copy.size_bytes));

    const res = await fetch(`${file.url}?format=mp4`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(4, 8).toString()).toBe("ftyp");
    // faststart: the index (moov) comes before the media data (mdat).
    expect(bytes.indexOf("moov")).toBeGreaterThan(0);
    expect(bytes.indexOf("moov")).toBeLessThan(bytes.indexOf("mdat"));
    const probed = probe(bytes);
    expect(probed.codecs).toEqual(["h264", "aac"]);
    expect(probed.duration).toBeGreaterThan(5.5);

    const ranged = await fetch(`${file.url}?format=mp4`, { headers: { Range: "bytes=0-99" } });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);

    const safari = await fetch(`${file.url}?format=auto`, { headers: { "User-Agent": SAFARI } });
    expect(safari.headers.get("content-type")).toBe("video/mp4");
    expect(safari.headers.get("vary")).toContain("User-Agent");
    await safari.arrayBuffer();
    const chrome = await fetch(`${file.url}?format=auto`, { headers: { "User-Agent": CHROME } });
    expect(chrome.headers.get("content-type")).toBe("video/webm");
    await chrome.arrayBuffer();
    expect((await fetch(file.url)).headers.get("content-type")).toBe("video/webm");

    const info = (await (await server.request(`/api/files/${file.id}`, { headers: { "x-api-key": owner.key } })).json()) as { mp4_url: string | null };
    expect(info.mp4_url).toBe(`${file.url}?format=mp4`);
    const share = await (await server.request(`/v/${file.id}`)).text();
    expect(share).toContain(`<meta property="og:video" content="${file.url}?format=mp4"`);
    expect(share).toContain(`<meta property="og:video:type" content="video/mp4"`);

    // Deleting the file takes the copy and its bytes with it.
    const del = await server.request(`/api/files/${file.id}`, { method: "DELETE", headers: { "x-api-key": owner.key } });
    expect(del.status).toBe(200);
    expect(await server.ctx.blobs.head(copy.storage_key)).toBeNull();
    expect((await getAccountQuota(server.ctx.db, owner.teamId)).usedBytes).toBe(before.usedBytes - file.file_size);
  }, 120_000);

  test("a free plan's clip is copied on first request (which gets the original); a file deleted before its turn leaves nothing", async () => {
    const owner = await seedAccount(server.ctx, { server: { allowedFileTypes: ["webm"] }, permissions: ["upload", "read", "delete"] });
    const file = await uploadClip(owner, phoneClip(3));
    expect((await fileRow(file.id))?.mp4_wanted_at).toBeNull();

    const first = await fetch(`${file.url}?format=mp4`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("video/webm");
    await first.arrayBuffer();
    await expect.poll(async () => (await fileRow(file.id))?.mp4_wanted_at).not.toBeNull();
    await server.runJob(BACKGROUND_JOBS.videoCopies);
    const later = await fetch(`${file.url}?format=mp4`);
    expect(later.headers.get("content-type")).toBe("video/mp4");
    await later.arrayBuffer();

    const doomed = await uploadClip(owner, phoneClip(2));
    const { storage_key } = await server.ctx.db.selectFrom("files").select("storage_key").where("id", "=", doomed.id).executeTakeFirstOrThrow();
    await (await fetch(`${doomed.url}?format=mp4`)).arrayBuffer();
    await expect.poll(async () => (await fileRow(doomed.id))?.mp4_wanted_at).not.toBeNull();
    const del = await server.request(`/api/files/${doomed.id}`, { method: "DELETE", headers: { "x-api-key": owner.key } });
    expect(del.status).toBe(200);
    await server.runJob(BACKGROUND_JOBS.videoCopies);
    expect(await copyRow(doomed.id)).toBeUndefined();
    expect(await server.ctx.blobs.head(variantStorageKey(storage_key, MP4_COPY_VARIANT))).toBeNull();
  }, 120_000);

  test("an animated GIF gets its running time and, on a paid plan, an MP4 copy a fraction of its size; a still GIF gets none", async () => {
    const owner = await seedAccount(server.ctx, { server: { allowedFileTypes: ["gif"] }, permissions: ["upload", "read", "delete"] });
    await server.ctx.db.updateTable("subscriptions").set({ tier: "starter", status: "active" }).where("team_id", "=", owner.teamId).execute();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-gif-"));
    execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=10", "-t", "3", "-y", path.join(dir, "reaction.gif")]);
    execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=10", "-frames:v", "1", "-y", path.join(dir, "still.gif")]);
    const upload = async (name: string) => {
      const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": owner.key }, body: form([{ field: "file", data: fs.readFileSync(path.join(dir, name)), filename: name }]) });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()) as { id: FileId; url: string; file_size: number; duration_ms: number | null };
    };
    const gif = await upload("reaction.gif");
    const still = await upload("still.gif");
    fs.rmSync(dir, { recursive: true, force: true });
    expect(gif.duration_ms).toBeGreaterThanOrEqual(2900);
    expect(still.duration_ms).toBeNull();
    expect((await fileRow(gif.id))?.mp4_wanted_at).not.toBeNull();
    expect((await fileRow(still.id))?.mp4_wanted_at).toBeNull();

    await server.runJob(BACKGROUND_JOBS.videoCopies);
    const copy = (await copyRow(gif.id))!;
    expect(Number(copy.size_bytes)).toBeLessThan(gif.file_size / 3);
    const res = await fetch(`${gif.url}?format=mp4`);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(probe(Buffer.from(await res.arrayBuffer())).codecs).toEqual(["h264"]);
    // format=auto on a GIF stays an image transform.
    const auto = await fetch(`${gif.url}?w=200&format=auto`, { headers: { Accept: "image/webp,*/*" } });
    expect(auto.headers.get("content-type")).toBe("image/webp");
    await auto.arrayBuffer();
  }, 120_000);
});
