import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { measureThroughput, median, processCpuMs, round } from "./lib.ts";

/**
 * The compose topology without Docker: nginx from deploy/nginx.conf as it is, with only what
 * Docker would give it rewritten — one worker (one Stash process behind it), the upstream, the port,
 * the files volume's path and where it writes — plus a second server block in the same nginx that
 * serves the same files directly, the reference.
 */
export function proxyConfig(options: { dir: string; stashPort: number; accelPort: number; directPort: number; filesRoot: string }): string {
  const source = fs.readFileSync("deploy/nginx.conf", "utf8");
  const replace = (text: string, pattern: RegExp, replacement: string) => {
    if (!pattern.test(text)) throw new Error(`deploy/nginx.conf no longer has ${pattern}: update bench/accel.ts`);
    return text.replace(pattern, replacement);
  };
  let conf = source;
  conf = replace(conf, /^worker_processes .*;$/m, `user root;\ndaemon off;\nworker_processes 1;\npid ${options.dir}/nginx.pid;\nerror_log ${options.dir}/error.log warn;`);
  conf = replace(conf, /(upstream stash \{)[^}]*?(keepalive \d+;)/s, `$1\n    server 127.0.0.1:${options.stashPort};\n    $2`);
  conf = replace(conf, /listen 3000;/, `listen 127.0.0.1:${options.accelPort};`);
  conf = replace(conf, /alias \/srv\/stash\/files\/;/, `alias ${options.filesRoot}/;`);
  conf = replace(conf, /access_log \/var\/log\/nginx\/access\.log/, `access_log ${options.dir}/access.log`);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((name) => `  ${name}_temp_path ${options.dir}/tmp/${name};`).join("\n");
  const direct = `  server {\n    listen 127.0.0.1:${options.directPort};\n    root ${options.filesRoot};\n    location / { }\n  }\n`;
  conf = replace(conf, /^http \{$/m, `http {\n${temp}`);
  // The reference server closes the http block.
  return conf.replace(/\}\s*$/, `${direct}}\n`);
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

async function waitForPort(port: number) {
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listens on ${port}`);
}

export interface ProxyTopology {
  accelPort: number;
  directPort: number;
  workerPid(): number;
  stop(): Promise<void>;
}

export async function startProxyTopology(workDir: string, stashPort: number, filesRoot: string): Promise<ProxyTopology> {
  const dir = path.join(workDir, "nginx-accel");
  fs.mkdirSync(path.join(dir, "tmp"), { recursive: true });
  const accelPort = await freePort();
  const directPort = await freePort();
  fs.writeFileSync(path.join(dir, "nginx.conf"), proxyConfig({ dir, stashPort, accelPort, directPort, filesRoot }));
  const child = spawn("nginx", ["-p", dir, "-c", path.join(dir, "nginx.conf")], { stdio: "inherit" });
  await waitForPort(accelPort);
  await waitForPort(directPort);
  return {
    accelPort,
    directPort,
    workerPid: () => Number(execFileSync("pgrep", ["-P", String(child.pid)], { encoding: "utf8" }).trim().split("\n")[0]),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGQUIT");
      }),
  };
}

/** Headers that belong to the connection or that nginx writes for the bytes it sends. */
const TRANSPORT = new Set(["date", "server", "connection", "keep-alive", "content-length", "transfer-encoding", "accept-ranges", "x-accel-redirect"]);

const headerMap = (res: Response) => Object.fromEntries([...res.headers].filter(([name]) => !TRANSPORT.has(name)));

/**
 * Before measuring: through nginx the file's bytes arrive whole, a Range gets Stash's validators
 * and a 206, and every header Stash set on its X-Accel-Redirect answer reaches the client unchanged.
 */
export async function checkProxyAnswers(stashPort: number, accelPort: number, url: string, bytes: Buffer): Promise<void> {
  const stash = await fetch(`http://127.0.0.1:${stashPort}${url}`);
  await stash.arrayBuffer();
  if (!stash.headers.get("x-accel-redirect")) throw new Error(`Stash answered ${url} without X-Accel-Redirect`);
  const proxied = await fetch(`http://127.0.0.1:${accelPort}${url}`);
  const body = Buffer.from(await proxied.arrayBuffer());
  if (proxied.status !== 200 || !body.equals(bytes)) throw new Error(`nginx answered ${url} with ${proxied.status} and ${body.length} bytes`);
  const expected = headerMap(stash);
  const got = headerMap(proxied);
  // Each request has its own id (nginx's $request_id through the proxy); it must be there, not equal.
  if (!got["x-request-id"]) throw new Error("no X-Request-Id through nginx");
  const differ = [...new Set([...Object.keys(expected), ...Object.keys(got)])].filter((name) => name !== "x-request-id" && expected[name] !== got[name]);
  if (differ.length) throw new Error(`headers differ through nginx: ${differ.map((name) => `${name}: ${expected[name]} → ${got[name]}`).join("; ")}`);
  const part = await fetch(`http://127.0.0.1:${accelPort}${url}`, { headers: { Range: "bytes=2-9", "If-Range": expected.etag ?? "" } });
  const partBody = Buffer.from(await part.arrayBuffer());
  if (part.status !== 206 || !partBody.equals(bytes.subarray(2, 10))) throw new Error(`a Range through nginx got ${part.status}`);
}

export interface AccelRun {
  size: string;
  /** Per round: nginx → Stash → nginx sendfile, and nginx serving the file directly. */
  accelPerSecond: number[];
  directPerSecond: number[];
  /** accel ÷ direct of each round (runs side by side in time), sorted. */
  ratios: number[];
  /** CPU per request, medians of the rounds (µs): nginx's worker and Stash for the proxied path, nginx alone direct. */
  accelCpuUs: { nginx: number; stash: number };
  directCpuUs: number;
  megabytesPerSecond: { accel: number; direct: number };
  budget: number;
}

/** The proxied path against the direct one, `rounds` interleaved wrk runs of `seconds` per size. */
export async function benchAccel(
  topology: ProxyTopology,
  stashPid: number,
  files: { size: string; url: string; key: string; budget: number }[],
  seconds: number,
  connections: number,
  rounds: number,
): Promise<AccelRun[]> {
  const runs: AccelRun[] = [];
  const worker = topology.workerPid();
  for (const file of files) {
    const urls = { accel: `http://127.0.0.1:${topology.accelPort}${file.url}`, direct: `http://127.0.0.1:${topology.directPort}/${file.key}` };
    for (const url of Object.values(urls)) await measureThroughput(url, 1, connections);
    const perSecond = { accel: [] as number[], direct: [] as number[] };
    const mbs = { accel: [] as number[], direct: [] as number[] };
    const cpu = { nginx: [] as number[], stash: [] as number[], direct: [] as number[] };
    for (let i = 0; i < rounds; i++) {
      for (const name of ["accel", "direct"] as const) {
        const before = { nginx: processCpuMs(worker), stash: processCpuMs(stashPid) };
        const result = await measureThroughput(urls[name], seconds, connections);
        const requests = result.requestsPerSecond * seconds;
        perSecond[name].push(result.requestsPerSecond);
        mbs[name].push(result.megabytesPerSecond);
        const nginxUs = ((processCpuMs(worker) - before.nginx) * 1000) / requests;
        if (name === "accel") {
          cpu.nginx.push(nginxUs);
          cpu.stash.push(((processCpuMs(stashPid) - before.stash) * 1000) / requests);
        } else cpu.direct.push(nginxUs);
      }
    }
    runs.push({
      size: file.size,
      accelPerSecond: perSecond.accel.map((n) => round(n, 0)),
      directPerSecond: perSecond.direct.map((n) => round(n, 0)),
      ratios: perSecond.accel.map((n, i) => round(n / perSecond.direct[i]!)).sort((a, b) => a - b),
      accelCpuUs: { nginx: round(median(cpu.nginx), 1), stash: round(median(cpu.stash), 1) },
      directCpuUs: round(median(cpu.direct), 1),
      megabytesPerSecond: { accel: round(median(mbs.accel), 0), direct: round(median(mbs.direct), 0) },
      budget: file.budget,
    });
  }
  return runs;
}
