/**
 * Uploads under 1 MiB are read whole into reusable buffers (decision record 089). Reuse must never
 * mix two uploads' bytes, and every buffer must come back, whether the upload was stored or refused.
 * Checked from outside: the bytes served back, and the pool's own figures on /metrics.
 */
import { createHash } from "node:crypto";
import sharp from "sharp";
import { describe, expect } from "vitest";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { test } from "../helpers/fixtures.ts";
import { gameScreenshot } from "../helpers/images.ts";
import { testAudio } from "../helpers/media-fixtures.ts";
import { form, traceOf } from "../helpers/upload-fixtures.ts";
import type { TestServer } from "../helpers/server.ts";

const sha256 = (bytes: Buffer | Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function screenshot(width: number, seed: number): Promise<Buffer> {
  return sharp(await gameScreenshot(width, Math.round((width * 9) / 16), seed)).webp({ quality: 85 }).toBuffer();
}

async function pool(server: TestServer): Promise<{ in_use: number; kept: number; made: number }> {
  const text = await (await server.request("/metrics")).text();
  const read = (measure: string) => Number(text.match(new RegExp(`^stash_upload_buffers\\{measure="${measure}"\\} (\\d+)$`, "m"))?.[1] ?? NaN);
  return { in_use: read("in_use"), kept: read("kept"), made: read("made") };
}

type Sent = { name: string; type: string; data: Buffer };

async function uploadAll(server: TestServer, account: SeededAccount, files: Sent[]) {
  return Promise.all(
    files.map(async (file) => {
      const res = await server.request("/api/upload", {
        method: "POST",
        headers: { "x-api-key": account.key },
        body: form([{ field: "file", data: file.data, filename: file.name, type: file.type }]),
      });
      return { file, res, body: (await res.json()) as { url?: string; sha256?: string; size?: number; code?: string } };
    }),
  );
}

/** Each answer names the bytes that were sent, and the file's URL serves exactly those bytes. */
async function expectOwnBytes(server: TestServer, answers: Awaited<ReturnType<typeof uploadAll>>) {
  for (const { file, res, body } of answers) {
    expect(res.status, file.name).toBe(201);
    expect(body.sha256, file.name).toBe(sha256(file.data));
    expect(body.size, file.name).toBe(file.data.length);
    const served = Buffer.from(await (await server.request(new URL(body.url!).pathname)).arrayBuffer());
    expect(sha256(served), file.name).toBe(sha256(file.data));
  }
}

describe("uploads read whole into reusable buffers", { timeout: 180_000 }, () => {
  test("keep their own bytes when many arrive at once and when a later wave reuses the buffers, and give every buffer back", async ({ server }) => {
    // A server made with the defaults: screenshots and voice notes are what scripts send.
    const account = await seedAccount(server.ctx, { server: { allowedFileTypes: undefined }, convertToWebp: true });
    const large: Sent[] = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => ({ name: `shot-${i}.webp`, type: "image/webp", data: await screenshot(1920, i + 1) })),
    );
    expect(Math.min(...large.map((f) => f.data.length))).toBeGreaterThan(200_000);
    expect(Math.max(...large.map((f) => f.data.length))).toBeLessThan(1024 * 1024);
    await expectOwnBytes(server, await uploadAll(server, account, large));
    const afterFirst = await pool(server);
    expect(afterFirst.in_use).toBe(0);
    expect(afterFirst.made).toBeGreaterThan(0);

    // Smaller files into buffers that held larger ones: nothing of the earlier bytes may show.
    const mixed: Sent[] = [
      ...(await Promise.all(Array.from({ length: 6 }, async (_, i) => ({ name: `small-${i}.webp`, type: "image/webp", data: await screenshot(480, 50 + i) })))),
      ...[1, 2, 3].map((seconds) => ({ name: `note-${seconds}.wav`, type: "audio/wav", data: testAudio("wav", seconds) })),
    ];
    await expectOwnBytes(server, await uploadAll(server, account, mixed));
    const afterSecond = await pool(server);
    expect(afterSecond.in_use).toBe(0);
    // No more uploads at once than the first wave: its buffers were reused, none made.
    expect(afterSecond.made).toBe(afterFirst.made);
    expect(afterSecond.kept).toBeGreaterThan(0);
  });

  test("gives the buffer back when the upload is refused after it was read", async ({ server }) => {
    const account = await seedAccount(server.ctx, { server: { allowedFileTypes: undefined }, convertToWebp: true });
    const whole = await screenshot(1280, 7);
    const truncated = whole.subarray(0, Math.floor(whole.length / 2));
    const before = await traceOf(server, account);
    const [refused] = await uploadAll(server, account, [{ name: "cut.webp", type: "image/webp", data: truncated }]);
    expect(refused!.res.status).toBe(422);
    expect(refused!.body.code).toBe("image_corrupt");
    expect((await pool(server)).in_use).toBe(0);
    // Nothing kept: no row, no blob, no usage.
    expect(await traceOf(server, account)).toEqual(before);
  });
});
