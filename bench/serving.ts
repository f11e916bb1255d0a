import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { spawn } from "node:child_process";
import { measureThroughput, percentile, round, type Throughput } from "./lib.ts";

export interface ServingTargets {
  stashPort: number;
  staticPort: number;
  filesRoot: string;
  small: { url: string; key: string };
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

/** An nginx of our own on a loopback port, one worker, sendfile on, serving the store's files. */
export async function startNginx(workDir: string, filesRoot: string): Promise<{ port: number; stop(): Promise<void> }> {
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
  access_log ${dir}/access.log;
  sendfile on;
  tcp_nopush on;
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
  stash: Throughput;
  node: Throughput;
  nginx: Throughput;
  vsNode: number;
  vsNginx: number;
}

/** /f/ against bare Node and nginx on the same files, interleaved rounds, best round of each. */
export async function benchServing(targets: ServingTargets, nginxPort: number, seconds: number, connections: number, rounds: number): Promise<ServingResult[]> {
  const results: ServingResult[] = [];
  for (const [size, file] of [["10 KB", targets.small], ["1 MiB", targets.large]] as const) {
    const urls = {
      stash: `http://127.0.0.1:${targets.stashPort}${file.url}`,
      node: `http://127.0.0.1:${targets.staticPort}/${file.key}`,
      nginx: `http://127.0.0.1:${nginxPort}/${file.key}`,
    };
    const best: Record<keyof typeof urls, Throughput | null> = { stash: null, node: null, nginx: null };
    for (let round = 0; round < rounds; round++) {
      for (const name of ["stash", "node", "nginx"] as const) {
        const measured = await measureThroughput(urls[name], seconds, connections);
        if (!best[name] || measured.requestsPerSecond > best[name]!.requestsPerSecond) best[name] = measured;
      }
    }
    const stash = best.stash!;
    results.push({
      size,
      stash,
      node: best.node!,
      nginx: best.nginx!,
      vsNode: round(stash.requestsPerSecond / best.node!.requestsPerSecond),
      vsNginx: round(stash.requestsPerSecond / best.nginx!.requestsPerSecond),
    });
  }
  return results;
}

export interface TransformResult {
  coldMs: number[];
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
export async function benchTransforms(stashPort: number, shots: string[], smallUrl: string): Promise<TransformResult> {
  const base = `http://127.0.0.1:${stashPort}`;
  const coldMs: number[] = [];
  for (const shot of shots) coldMs.push(round(await timedGet(`${base}${shot}?w=640&format=webp`), 1));
  const cached: number[] = [];
  const statics: number[] = [];
  for (let i = 0; i < 200; i++) {
    cached.push(await timedGet(`${base}${shots[i % shots.length]}?w=640&format=webp`));
    statics.push(await timedGet(`${base}${smallUrl}`));
  }
  return {
    coldMs,
    cachedP50Ms: round(percentile(cached, 50)),
    cachedP99Ms: round(percentile(cached, 99)),
    staticP50Ms: round(percentile(statics, 50)),
  };
}
