import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { median, processCpuMs, round } from "./lib.ts";

/** One start of the production host, as `npm run serve` starts it. */
export interface StartSample {
  /** From spawn to the first 200 of /api/health. */
  healthyMs: number;
  /** The process's CPU time (all threads) at that moment. */
  cpuMs: number;
  /** Resident memory 10 s after healthy, with no requests, and the highest it reached. */
  idleRssMb: number;
  peakRssMb: number;
}

export interface StartFigures {
  samples: StartSample[];
  healthyMs: { median: number; min: number; max: number };
  cpuMs: { median: number; min: number; max: number };
  idleRssMb: { median: number; min: number; max: number };
  peakRssMb: { median: number; min: number; max: number };
}

export interface EmbeddedStartResult {
  rounds: number;
  /** `npm run serve` on a new, empty DATA_DIR: PGlite makes its database, migrations and the job queue's schema run. */
  pgliteFresh: StartFigures;
  /** The same data directory started again (every start after the first). */
  pgliteRestart: StartFigures;
  /** DATABASE_URL set, on a new, empty database (the deployment). */
  postgresFresh: StartFigures;
  /** The 1-minute load average before each round. */
  loads: number[];
}

/** The node arguments and environment of package.json's `serve` script (what `npm start` ends in). */
export function serveCommand(): { env: Record<string, string>; args: string[] } {
  const script = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.serve!;
  const words = script.split(/\s+/);
  const node = words.indexOf("node");
  const env = Object.fromEntries(words.slice(0, node).filter((w) => /^[A-Z_]+=/.test(w)).map((w) => w.split("=") as [string, string]));
  return { env, args: words.slice(node + 1) };
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

const rssMb = (pid: number, field: "VmRSS" | "VmHWM") => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** Starts the host, times it to its first healthy answer, lets it idle `idleSeconds`, stops it. */
async function startOnce(dataDir: string, databaseUrl: string | undefined, logFile: string, idleSeconds: number): Promise<StartSample> {
  const serve = serveCommand();
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, ...serve.env, HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "info" };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const out = fs.openSync(logFile, "a");
  const started = performance.now();
  const child = spawn(process.execPath, serve.args, { env, stdio: ["ignore", out, out] });
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    let healthyMs = 0;
    while (!healthyMs) {
      if (child.exitCode !== null) throw new Error(`the host exited with ${child.exitCode} before it was healthy (${logFile})`);
      if (performance.now() - started > 180_000) throw new Error(`not healthy within 180 s (${logFile})`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (res) => res.arrayBuffer().then(() => res.status === 200),
        () => false,
      );
      if (ok) healthyMs = performance.now() - started;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const cpuMs = processCpuMs(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    return { healthyMs: round(healthyMs, 0), cpuMs, idleRssMb: round(rssMb(child.pid!, "VmRSS"), 1), peakRssMb: round(rssMb(child.pid!, "VmHWM"), 1) };
  } finally {
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
    await exited;
  }
}

function figures(samples: StartSample[]): StartFigures {
  const spread = (values: number[]) => ({ median: round(median(values), 1), min: round(Math.min(...values), 1), max: round(Math.max(...values), 1) });
  return {
    samples,
    healthyMs: spread(samples.map((s) => s.healthyMs)),
    cpuMs: spread(samples.map((s) => s.cpuMs)),
    idleRssMb: spread(samples.map((s) => s.idleRssMb)),
    peakRssMb: spread(samples.map((s) => s.peakRssMb)),
  };
}

/**
 * The embedded default against PostgreSQL, in interleaved rounds: each round starts `npm run serve`
 * on a new DATA_DIR (PGlite), starts it again on that directory, then starts it on a new PostgreSQL
 * database. `newDatabase` makes an empty database and returns its URL, or null when no PostgreSQL answers.
 */
export async function benchEmbeddedStart(workDir: string, rounds: number, newDatabase: (round: number) => Promise<string | null>, idleSeconds = 10): Promise<EmbeddedStartResult | string> {
  if (!fs.existsSync("build/host/server.mjs")) return "not run: no build/host/server.mjs (npm run build)";
  const dir = path.join(workDir, "embedded-start");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const fresh: StartSample[] = [];
  const restart: StartSample[] = [];
  const postgres: StartSample[] = [];
  const loads: number[] = [];
  for (let i = 0; i < rounds; i++) {
    loads.push(round(Number(fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]), 1));
    const dataDir = path.join(dir, `pglite-${i}`);
    fresh.push(await startOnce(dataDir, undefined, path.join(dir, `pglite-${i}.log`), idleSeconds));
    restart.push(await startOnce(dataDir, undefined, path.join(dir, `pglite-${i}.log`), idleSeconds));
    const url = await newDatabase(i);
    if (url) postgres.push(await startOnce(path.join(dir, `postgres-${i}`), url, path.join(dir, `postgres-${i}.log`), idleSeconds));
  }
  if (!postgres.length) return "not run: no PostgreSQL at BENCH_PG_ADMIN_URL / 127.0.0.1:5432 to compare with";
  return { rounds, pgliteFresh: figures(fresh), pgliteRestart: figures(restart), postgresFresh: figures(postgres), loads };
}
