import fs from "node:fs";
import sharp from "sharp";
import { computeThumbHash } from "../app/services/media/thumbhash.server.ts";
import { DEFAULT_QUALITY, THUMBNAIL_SPEC } from "../app/services/media/transforms.server.ts";
import { median, round } from "./lib.ts";

/** Snap sizes between 200 and 800 px not made earlier in the run (640 is the latency bench's, 320 the thumbnail). */
const WIDTHS = [200, 240, 300, 400, 480, 600, 720, 800];
const CLIENTS = 4;

export interface ColdTransformResult {
  transforms: number;
  stashPerSecond: number;
  referencePerSecond: number;
  ratio: number;
  thumbhashMs: number;
}

/** Runs `jobs` with `clients` workers pulling from one queue; transforms per second. */
async function throughput(jobs: (() => Promise<void>)[], clients: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
  return jobs.length / ((performance.now() - started) / 1000);
}

/**
 * Cold transforms (1080p screenshots → 200–800 px WebP, every request a new variant) from 4 clients,
 * against a bare sharp loop doing the same resizes of the same files (read from disk, as Stash's disk
 * store hands sharp a path) with the same encoder settings in this process, also 4 at a time. Stash also stores each variant and its row; the loop only encodes. Each pair runs
 * twice, interleaved, and the better run of each counts. Then ThumbHash's cost on a thumbnail, as the
 * upload path computes it.
 */
export async function benchColdTransforms(stashPort: number, shotUrls: string[], shotFiles: string[]): Promise<ColdTransformResult> {
  const pairs = shotUrls.flatMap((url, i) => WIDTHS.map((width) => ({ url, file: shotFiles[i]!, width })));
  const halves = [pairs.filter((_, i) => i % 2 === 0), pairs.filter((_, i) => i % 2 === 1)];
  let stashBest = 0;
  let referenceBest = 0;
  for (const half of halves) {
    stashBest = Math.max(
      stashBest,
      await throughput(
        half.map(({ url, width }) => async () => {
          const res = await fetch(`http://127.0.0.1:${stashPort}${url}?w=${width}&format=webp`);
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`${url}?w=${width} answered ${res.status}`);
        }),
        CLIENTS,
      ),
    );
    referenceBest = Math.max(
      referenceBest,
      await throughput(
        half.map(({ file, width }) => async () => {
          await sharp(file, { failOn: "error", pages: 1 })
            .autoOrient()
            .resize({ width, fit: "inside", withoutEnlargement: true })
            .webp({ quality: DEFAULT_QUALITY, effort: 4, smartSubsample: false })
            .toBuffer();
        }),
        CLIENTS,
      ),
    );
  }
  const thumbnail = await sharp(fs.readFileSync(shotFiles[0]!)).resize({ width: THUMBNAIL_SPEC.width }).webp({ quality: DEFAULT_QUALITY }).toBuffer();
  const hashMs: number[] = [];
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    await computeThumbHash(thumbnail);
    hashMs.push(performance.now() - started);
  }
  return {
    transforms: pairs.length,
    stashPerSecond: round(stashBest, 1),
    referencePerSecond: round(referenceBest, 1),
    ratio: round(stashBest / referenceBest),
    thumbhashMs: round(median(hashMs), 2),
  };
}
