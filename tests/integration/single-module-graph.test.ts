/**
 * The host loads the app once (server/app.ts, docs/decisions/069): the `/f/` fast path and the
 * React Router routes share every module, so the process has one image limiter, and sharp never
 * runs more images at once than its bound, whichever path asks. Before, each path had its own copy
 * and together they ran up to twice the bound.
 */
import { describe, expect } from "vitest";
import type { SeededAccount } from "../helpers/api-seed.ts";
import { test } from "../helpers/fixtures.ts";
import { gameScreenshot } from "../helpers/images.ts";
import type { TestServer } from "../helpers/server.ts";
import { form } from "../helpers/upload-fixtures.ts";

async function imageJobs(server: TestServer): Promise<{ slots: number; peak: number; finished: number }> {
  const text = await (await server.request("/metrics")).text();
  const read = (measure: string) => Number(text.match(new RegExp(`^stash_image_jobs\\{measure="${measure}"\\} (\\d+)$`, "m"))?.[1] ?? NaN);
  return { slots: read("slots"), peak: read("peak"), finished: read("finished") };
}

function upload(server: TestServer, account: SeededAccount, seed: number) {
  return gameScreenshot(1280, 720, seed).then((data) =>
    server.request("/api/upload", {
      method: "POST",
      headers: { "x-api-key": account.key },
      body: form([{ field: "file", data, filename: `shot-${seed}.png`, type: "image/png" }]),
    }),
  );
}

/** The path of a freshly uploaded 1280×720 screenshot, uploaded through a React Router route. */
async function uploadedImage(server: TestServer, account: SeededAccount): Promise<string> {
  const res = await upload(server, account, 1);
  expect(res.status).toBe(201);
  return new URL((await res.json()).url).pathname;
}

describe("one module graph per process", { timeout: 120_000 }, () => {
  test("counts image work from the /f/ fast path and from React Router routes in one limiter", async ({ server, account }) => {
    const fileUrl = await uploadedImage(server, account);
    const start = await imageJobs(server);
    expect(start.finished).toBeGreaterThan(0); // the upload above, made through a React Router route

    const variant = await server.request(`${fileUrl}?preset=small`);
    expect(variant.status).toBe(200);
    await variant.arrayBuffer();
    const afterVariant = await imageJobs(server);
    expect(afterVariant.finished).toBeGreaterThan(start.finished);

    expect((await upload(server, account, 2)).status).toBe(201);
    expect((await imageJobs(server)).finished).toBeGreaterThan(afterVariant.finished);
  });

  test("never runs more images at once than its bound under 20 concurrent transforms and uploads", async ({ server, account }) => {
    const fileUrl = await uploadedImage(server, account);
    const before = await imageJobs(server);
    const widths = [32, 64, 100, 120, 200, 240, 300, 400, 480, 500]; // distinct after snapping, none a preset
    const answers = await Promise.all([
      ...widths.map(async (w) => {
        const res = await server.request(`${fileUrl}?w=${w}&format=webp`);
        await res.arrayBuffer();
        return res.status;
      }),
      ...Array.from({ length: 10 }, (_, i) => upload(server, account, 10 + i).then((res) => res.status)),
    ]);
    expect(answers.filter((status) => status === 200)).toHaveLength(10);
    expect(answers.filter((status) => status === 201)).toHaveLength(10);
    const after = await imageJobs(server);
    expect(after.finished - before.finished).toBeGreaterThanOrEqual(20);
    expect(after.peak).toBe(after.slots);
  });
});
