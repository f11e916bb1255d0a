import { randomBytes } from "node:crypto";
import http from "node:http";
import { round, sampleRss } from "./lib.ts";

export interface UploadResult {
  uploads: number;
  megabytesEach: number;
  ok: number;
  statuses: Record<string, number>;
  seconds: number;
  megabytesPerSecond: number;
  peakRssMb: number;
  baselineRssMb: number;
}

/** One multipart upload written from a shared buffer, so the bench itself holds one copy. */
function upload(port: number, key: string, body: Buffer): Promise<number> {
  const boundary = `----stashbench${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nbench\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="evidence.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/upload",
        method: "POST",
        headers: {
          "x-api-key": key,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": head.length + body.length + tail.length,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.write(head);
    req.write(body);
    req.end(tail);
  });
}

/** 20 concurrent 50 MB uploads over loopback: wall-clock throughput and the server's peak RSS. */
export async function benchUploads(port: number, pid: number, key: string, count: number, megabytes: number): Promise<UploadResult> {
  // A PDF header makes the bytes a type the bench server allows (stash-server.ts); the rest is incompressible noise.
  const body = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(megabytes * 1_000_000 - 9)]);
  const baseline = sampleRss(pid).stop();
  const rss = sampleRss(pid);
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: count }, () => upload(port, key, body)));
  const seconds = (performance.now() - started) / 1000;
  const peak = rss.stop();
  const histogram: Record<string, number> = {};
  for (const status of statuses) histogram[status] = (histogram[status] ?? 0) + 1;
  const ok = statuses.filter((s) => s >= 200 && s < 300).length;
  return {
    uploads: count,
    megabytesEach: megabytes,
    ok,
    statuses: histogram,
    seconds: round(seconds, 1),
    megabytesPerSecond: round((ok * megabytes) / seconds, 1),
    peakRssMb: round(peak / 1024 / 1024, 1),
    baselineRssMb: round(baseline / 1024 / 1024, 1),
  };
}
