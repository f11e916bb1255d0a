import { randomBytes } from "node:crypto";
import http from "node:http";
import { median, percentile, processCpuMs, round, sampleRss } from "./lib.ts";

export interface SmallUploadRun {
  file: string;
  concurrency: number;
  /** Medians of the interleaved rounds. */
  stash: { perSecond: number; p99Ms: number; cpuMsPerUpload: number };
  reference: { perSecond: number; p99Ms: number; cpuMsPerUpload: number };
  /** Median of the per-round ratios, and their lowest and highest. */
  ratio: number;
  ratioRange: [number, number];
  rounds: number;
  budget: number;
  /** Stash's highest resident memory during these rounds (MB). */
  peakRssMb: number;
}

function multipart(file: Buffer, name: string, type: string) {
  const boundary = `----stashsmall${randomBytes(8).toString("hex")}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nscreenshots\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** `concurrency` keep-alive clients posting the same file for `seconds`; uploads/s, p99 and server CPU per upload. */
async function drive(port: number, pid: number, keys: string[], file: { body: Buffer; contentType: string }, concurrency: number, seconds: number) {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let failed = 0;
  const cpuBefore = processCpuMs(pid);
  const deadline = performance.now() + seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path: "/api/upload",
          method: "POST",
          agent,
          headers: { ...(keys.length ? { "x-api-key": keys[next++ % keys.length]! } : {}), "content-type": file.contentType, "content-length": file.body.length },
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            if (res.statusCode === 201) latencies.push(performance.now() - started);
            else failed++;
            resolve();
          });
        },
      );
      req.on("error", () => {
        failed++;
        resolve();
      });
      req.end(file.body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) await one();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = processCpuMs(pid) - cpuBefore;
  agent.destroy();
  if (failed) throw new Error(`${failed} uploads failed`);
  return { perSecond: round(latencies.length / elapsed, 1), p99Ms: round(percentile(latencies, 99), 1), cpuMsPerUpload: round(cpu / Math.max(latencies.length, 1), 1) };
}

/**
 * Small uploads, the real game workload: a 1080p WebP screenshot and a PDF of its size at concurrency 1
 * and 8, Stash (production entry, its database) against the bare busboy server of
 * upload-reference-server.ts. Budgets (issue 41): WebP ≥ 0.9×, PDF ≥ 0.6×; Stash's RSS < 300 MB.
 *
 * Both servers first take the same load for `warmSeconds` per file: V8 optimises Stash's per-request
 * code over its first few thousand uploads (CPU per PDF upload falls by about a third), and an instance
 * in service is past that; the reference, a few dozen lines, is warm within a second. Then `rounds`
 * runs of each, side by side, at each concurrency; the verdict is the median ratio of the rounds.
 */
export async function benchSmallUploads(
  stash: { port: number; pid: number; uploadKeys: string[] },
  reference: { port: number; pid: number },
  files: { webp?: Buffer; pdf?: Buffer },
  options: { seconds: number; rounds: number; warmSeconds: number },
): Promise<SmallUploadRun[]> {
  const runs: SmallUploadRun[] = [];
  const kinds = [
    ["screenshot.webp", files.webp, "image/webp", 0.9],
    ["report.pdf", files.pdf, "application/pdf", 0.6],
  ] as const;
  for (const [name, bytes, type, budget] of kinds) {
    if (!bytes) continue;
    const body = multipart(bytes, name, type);
    await drive(stash.port, stash.pid, stash.uploadKeys, body, 8, options.warmSeconds);
    await drive(reference.port, reference.pid, [], body, 8, options.warmSeconds);
    for (const concurrency of [1, 8]) {
      const measured: { stash: Measured; reference: Measured; ratio: number }[] = [];
      let peakRss = 0;
      for (let pass = 0; pass < options.rounds; pass++) {
        const rss = sampleRss(stash.pid);
        const s = await drive(stash.port, stash.pid, stash.uploadKeys, body, concurrency, options.seconds);
        peakRss = Math.max(peakRss, rss.stop());
        const r = await drive(reference.port, reference.pid, [], body, concurrency, options.seconds);
        measured.push({ stash: s, reference: r, ratio: s.perSecond / r.perSecond });
      }
      const ratios = measured.map((m) => m.ratio);
      runs.push({
        file: `${name} (${round(bytes.length / 1024, 0)} KB)`,
        concurrency,
        stash: medians(measured.map((m) => m.stash)),
        reference: medians(measured.map((m) => m.reference)),
        ratio: round(median(ratios)),
        ratioRange: [round(Math.min(...ratios)), round(Math.max(...ratios))],
        rounds: options.rounds,
        budget,
        peakRssMb: round(peakRss / 1024 / 1024, 1),
      });
    }
  }
  return runs;
}

type Measured = Awaited<ReturnType<typeof drive>>;

function medians(runs: Measured[]): Measured {
  return {
    perSecond: round(median(runs.map((r) => r.perSecond)), 1),
    p99Ms: round(median(runs.map((r) => r.p99Ms)), 1),
    cpuMsPerUpload: round(median(runs.map((r) => r.cpuMsPerUpload)), 1),
  };
}
