import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";

export interface Child<T> {
  process: ChildProcess;
  info: T;
  stop(): Promise<void>;
}

/**
 * Starts a child that prints `{"bench": info}` when ready; kills it on stop. Its stdout (the ready
 * line, then Stash's access log) goes to `stdoutFile`, as nginx writes its access log to a file:
 * read through a pipe, the lines would cost this process CPU on the cores the servers share.
 */
export async function startChild<T>(command: string, args: string[], env: Record<string, string>, stdoutFile: string, timeoutMs = 120_000): Promise<Child<T>> {
  const out = fs.openSync(stdoutFile, "w");
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", out, "inherit"] });
  fs.closeSync(out);
  let exited: number | null | undefined;
  child.once("exit", (code) => (exited = code));
  const deadline = Date.now() + timeoutMs;
  let info: T | undefined;
  while (info === undefined) {
    // The child's own logs share stdout; its ready line is the one shaped {"bench": …}.
    const line = fs.readFileSync(stdoutFile, "utf8").split("\n").find((text) => text.startsWith('{"bench":'));
    if (line) info = (JSON.parse(line) as { bench: T }).bench;
    else if (exited !== undefined) throw new Error(`${command} exited with ${exited}`);
    else if (Date.now() > deadline) throw new Error(`${command} did not start in ${timeoutMs} ms`);
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    process: child,
    info,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
      }),
  };
}

export function hasBinary(name: string): Promise<boolean> {
  return new Promise((resolve) => execFile("sh", ["-c", `command -v ${name}`], (error) => resolve(!error)));
}

export interface Throughput {
  requestsPerSecond: number;
  megabytesPerSecond: number;
  tool: string;
}

function parseWrk(output: string): Throughput {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? 0);
  const transfer = /Transfer\/sec:\s+([\d.]+)(\w+)/.exec(output);
  const unit = transfer?.[2] ?? "MB";
  const scale = unit.startsWith("G") ? 1024 : unit.startsWith("K") ? 1 / 1024 : unit.startsWith("B") ? 1 / 1024 / 1024 : 1;
  return { requestsPerSecond: rps, megabytesPerSecond: Number(transfer?.[1] ?? 0) * scale, tool: "wrk" };
}

/** Keep-alive GET throughput (with `headers` on every request): wrk when installed, else a Node loop with the same connection count. */
export async function measureThroughput(url: string, seconds: number, connections: number, headers: Record<string, string> = {}): Promise<Throughput> {
  if (await hasBinary("wrk")) {
    const headerArgs = Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
    const output = await new Promise<string>((resolve, reject) =>
      execFile("wrk", ["-t1", `-c${connections}`, `-d${seconds}s`, ...headerArgs, url], (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    // wrk counts answers outside 2xx/3xx; a benchmark of errors would measure nothing.
    const failed = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
    if (failed) throw new Error(`${url}: ${failed[1]} answers outside 2xx/3xx`);
    return parseWrk(output);
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = Date.now() + seconds * 1000;
  let requests = 0;
  let bytes = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      await new Promise<void>((resolve, reject) => {
        http
          .get(url, { agent, headers }, (res) => {
            res.on("data", (chunk: Buffer) => (bytes += chunk.length));
            res.on("end", () => resolve());
          })
          .on("error", reject);
      });
      requests++;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  return { requestsPerSecond: requests / seconds, megabytesPerSecond: bytes / seconds / 1024 / 1024, tool: "node loop" };
}

/**
 * Keep-alive HEAD requests from ApacheBench (`ab -k -i`), a C load generator like wrk that, unlike
 * wrk, reads a HEAD answer without waiting for the body its Content-Length announces.
 */
export async function measureHeads(url: string, seconds: number, connections: number): Promise<{ requestsPerSecond: number }> {
  const output = await new Promise<string>((resolve, reject) =>
    // -n caps the count; -t ends the run first.
    execFile("ab", ["-q", "-k", "-i", "-c", String(connections), "-t", String(seconds), "-n", "100000000", url], (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
  const failed = Number(/Failed requests:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  if (failed || non2xx) throw new Error(`${url}: ${failed} failed and ${non2xx} non-2xx HEAD answers`);
  return { requestsPerSecond: Number(/Requests per second:\s+([\d.]+)/.exec(output)?.[1] ?? 0) };
}

/**
 * Keep-alive requests of one method with fixed headers from a Node loop (HEAD, or a GET revalidation
 * with If-None-Match); requests per second and the statuses seen.
 */
export async function measureRequests(url: string, seconds: number, connections: number, options: { method: string; headers?: Record<string, string> }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = Date.now() + seconds * 1000;
  const statuses = new Map<number, number>();
  let requests = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      await new Promise<void>((resolve, reject) => {
        http
          .request(url, { agent, method: options.method, headers: options.headers }, (res) => {
            statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
            res.resume();
            res.on("end", () => resolve());
          })
          .on("error", reject)
          .end();
      });
      requests++;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  return { requestsPerSecond: requests / seconds, statuses: Object.fromEntries(statuses) };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Peak resident memory of a process, sampled every 50 ms until stopped. */
export function sampleRss(pid: number): { stop(): number } {
  let peak = 0;
  const read = () => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb * 1024);
    } catch {
      // The process may have exited; keep the peak seen so far.
    }
  };
  read();
  const timer = setInterval(read, 50);
  return {
    stop() {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}

/** CPU time (user + system, all threads) a process has used so far, in ms; Linux /proc, 10 ms ticks. */
export function processCpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
}

export const median = (values: number[]) => percentile(values, 50);

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
