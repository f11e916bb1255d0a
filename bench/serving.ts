import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { execFileSync, spawn } from "node:child_process";
import { hasBinary, measureHeads, measureRequests, measureThroughput, median, percentile, processCpuMs, round, type Throughput } from "./lib.ts";

export interface ServingTargets {
  stashPort: number;
  stashPid: number;
  staticPort: number;
  staticPid: number;
  filesRoot: string;
  small: { url: string; key: string };
  medium: { url: string; key: string };
  large: { url: string; key: string };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * An nginx of our own on a loopback port serving the store's files as an operator would configure it:
 * one worker (against one Stash process), sendfile, tcp_nopush, open_file_cache, a buffered access log.
 */
export async function startNginx(workDir: string, filesRoot: string): Promise<{ port: number; workerPid(): number; stop(): Promise<void> }> {
  const dir = path.join(workDir, "nginx");
  fs.mkdirSync(path.join(dir, "tmp"), { recursive: true });
  const port = await freePort();
  const conf = `
user root;
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log combined buffer=64k flush=1s;
  sendfile on;
  tcp_nopush on;
  open_file_cache max=10000 inactive=60s;
  open_file_cache_valid 30s;
  keepalive_requests 100000;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:${port};
    root ${filesRoot};
    location / { }
  }
}`;
  fs.writeFileSync(path.join(dir, "nginx.conf"), conf);
  const child = spawn("nginx", ["-p", dir, "-c", path.join(dir, "nginx.conf")], { stdio: "inherit" });
  for (let i = 0; i < 50; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    // One worker (worker_processes 1): it does the serving, the master only watches it.
    workerPid: () => Number(execFileSync("pgrep", ["-P", String(child.pid)], { encoding: "utf8" }).trim().split("\n")[0]),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGQUIT");
      }),
  };
}

export interface ServingResult {
  size: string;
  /** Each target's requests per second, per round. */
  perSecond: { stash: number[]; node: number[]; nginx: number[] };
  megabytesPerSecond: { stash: number; nginx: number };
  /** Stash ÷ Node and Stash ÷ nginx of each round (runs side by side in time), sorted. */
  roundRatiosVsNode: number[];
  roundRatiosVsNginx: number[];
  /** Server CPU per request (µs), median of the rounds: steadier than req/s on a shared machine. nginx: its one worker. */
  stashCpuUs: number;
  nodeCpuUs: number;
  nginxCpuUs: number;
  tool: string;
}

/** One wrk run, with the CPU the server process used during it. */
async function measure(url: string, seconds: number, connections: number, pid: number): Promise<Throughput & { cpuUsPerRequest: number }> {
  const before = processCpuMs(pid);
  const result = await measureThroughput(url, seconds, connections);
  return { ...result, cpuUsPerRequest: result.requestsPerSecond ? ((processCpuMs(pid) - before) * 1000) / (result.requestsPerSecond * seconds) : 0 };
}

/**
 * /f/ against bare Node and nginx on the same files in interleaved rounds: each target's rate and CPU
 * per request per round, and the per-round ratios (the verdicts use their median).
 */
export async function benchServing(targets: ServingTargets, nginx: { port: number; pid: number }, seconds: number, connections: number, rounds: number): Promise<ServingResult[]> {
  const results: ServingResult[] = [];
  for (const [size, file] of [["10 KB", targets.small], ["200 KB", targets.medium], ["1 MiB", targets.large]] as const) {
    const urls = {
      stash: `http://127.0.0.1:${targets.stashPort}${file.url}`,
      node: `http://127.0.0.1:${targets.staticPort}/${file.key}`,
      nginx: `http://127.0.0.1:${nginx.port}/${file.key}`,
    };
    const pids = { stash: targets.stashPid, node: targets.staticPid, nginx: nginx.pid };
    const perSecond = { stash: [] as number[], node: [] as number[], nginx: [] as number[] };
    const mbs = { stash: [] as number[], nginx: [] as number[] };
    const cpu = { stash: [] as number[], node: [] as number[], nginx: [] as number[] };
    let tool = "";
    // Warm-up: the first requests fill caches and JIT; they are not measured.
    for (const name of ["stash", "node", "nginx"] as const) await measureThroughput(urls[name], 1, connections);
    for (let i = 0; i < rounds; i++) {
      for (const name of ["stash", "node", "nginx"] as const) {
        const run = await measure(urls[name], seconds, connections, pids[name]);
        perSecond[name].push(round(run.requestsPerSecond, 0));
        cpu[name].push(run.cpuUsPerRequest);
        if (name !== "node") mbs[name].push(run.megabytesPerSecond);
        tool = run.tool;
      }
    }
    const ratios = (other: number[]) => perSecond.stash.map((n, i) => round(n / other[i]!)).sort((a, b) => a - b);
    results.push({
      size,
      perSecond,
      megabytesPerSecond: { stash: round(median(mbs.stash), 0), nginx: round(median(mbs.nginx), 0) },
      roundRatiosVsNode: ratios(perSecond.node),
      roundRatiosVsNginx: ratios(perSecond.nginx),
      stashCpuUs: round(median(cpu.stash), 0),
      nodeCpuUs: round(median(cpu.node), 0),
      nginxCpuUs: round(median(cpu.nginx), 0),
      tool,
    });
  }
  return results;
}

export interface TransformResult {
  coldMs: number[];
  /** Server CPU per cold transform (ms, 10 ms ticks). */
  coldCpuMs: number[];
  cachedP50Ms: number;
  cachedP99Ms: number;
  staticP50Ms: number;
}

async function timedGet(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - started;
}

/** 1080p screenshot → 640 px WebP: first request (encode) per image, then the cached variant vs the original. */
export async function benchTransforms(stashPort: number, stashPid: number, shots: string[], smallUrl: string): Promise<TransformResult> {
  const base = `http://127.0.0.1:${stashPort}`;
  const coldMs: number[] = [];
  const coldCpuMs: number[] = [];
  for (const shot of shots) {
    const before = processCpuMs(stashPid);
    coldMs.push(round(await timedGet(`${base}${shot}?w=640&format=webp`), 1));
    coldCpuMs.push(processCpuMs(stashPid) - before);
  }
  const cached: number[] = [];
  const statics: number[] = [];
  for (let i = 0; i < 200; i++) {
    cached.push(await timedGet(`${base}${shots[i % shots.length]}?w=640&format=webp`));
    statics.push(await timedGet(`${base}${smallUrl}`));
  }
  return {
    coldMs,
    coldCpuMs,
    cachedP50Ms: round(percentile(cached, 50)),
    cachedP99Ms: round(percentile(cached, 99)),
    staticP50Ms: round(percentile(statics, 50)),
  };
}

export interface RevalidationResult {
  kind: "HEAD" | "304";
  /** The load generator: wrk for the 304 and ApacheBench for HEAD when installed (wrk waits for a HEAD answer's body), else a Node loop. */
  tool: string;
  stashCpuUs: number;
  nginxCpuUs: number;
  stashPerSecond: number;
  nginxPerSecond: number;
}

/**
 * The requests a CDN answers most once browsers have a file: HEAD and a GET revalidated with its
 * ETag (304), on the 10 KB file, Stash against nginx, keep-alive. wrk drives the 304s and ApacheBench
 * (`ab -k -i`) the HEADs when installed: a Node loop on the same cores takes CPU from the servers it
 * measures. wrk cannot drive HEAD: it waits for the body a HEAD answer's Content-Length announces.
 * CPU per request is the server process's (nginx: its worker's), the median of `rounds` interleaved runs.
 */
export async function benchRevalidation(targets: ServingTargets, nginx: { port: number; pid: number }, seconds: number, connections: number, rounds: number): Promise<RevalidationResult[]> {
  const urls = { stash: `http://127.0.0.1:${targets.stashPort}${targets.small.url}`, nginx: `http://127.0.0.1:${nginx.port}/${targets.small.key}` };
  const pids = { stash: targets.stashPid, nginx: nginx.pid };
  const etags = {
    stash: (await fetch(urls.stash)).headers.get("etag") ?? "",
    nginx: (await fetch(urls.nginx)).headers.get("etag") ?? "",
  };
  const results: RevalidationResult[] = [];
  const wrk = await hasBinary("wrk");
  const ab = await hasBinary("ab");
  for (const kind of ["HEAD", "304"] as const) {
    const cpu = { stash: [] as number[], nginx: [] as number[] };
    const rate = { stash: [] as number[], nginx: [] as number[] };
    for (let i = 0; i < rounds; i++) {
      for (const name of ["stash", "nginx"] as const) {
        const options = kind === "HEAD" ? { method: "HEAD" } : { method: "GET", headers: { "If-None-Match": etags[name] } };
        const expected = kind === "HEAD" ? 200 : 304;
        const check = await fetch(urls[name], options);
        if (check.status !== expected) throw new Error(`${name} ${kind}: status ${check.status}`);
        const before = processCpuMs(pids[name]);
        let requestsPerSecond: number;
        if (kind === "304" && wrk) {
          requestsPerSecond = (await measureThroughput(urls[name], seconds, connections, options.headers)).requestsPerSecond;
        } else if (kind === "HEAD" && ab) {
          requestsPerSecond = (await measureHeads(urls[name], seconds, connections)).requestsPerSecond;
        } else {
          const run = await measureRequests(urls[name], seconds, connections, options);
          if (Object.keys(run.statuses).some((status) => Number(status) !== expected)) throw new Error(`${name} ${kind}: statuses ${JSON.stringify(run.statuses)}`);
          requestsPerSecond = run.requestsPerSecond;
        }
        cpu[name].push(((processCpuMs(pids[name]) - before) * 1000) / (requestsPerSecond * seconds));
        rate[name].push(requestsPerSecond);
      }
    }
    results.push({
      kind,
      tool: kind === "304" && wrk ? "wrk" : kind === "HEAD" && ab ? "ApacheBench" : "Node loop",
      stashCpuUs: round(median(cpu.stash), 0),
      nginxCpuUs: round(median(cpu.nginx), 0),
      stashPerSecond: round(median(rate.stash), 0),
      nginxPerSecond: round(median(rate.nginx), 0),
    });
  }
  return results;
}
