import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./server.ts";

/** One Stash process as `npm run serve` starts it (build/host/server.mjs on plain node), its output kept. */
export interface Instance {
  url: string;
  child: ChildProcess;
  /** Every line written to stdout so far (pino JSON). */
  stdout: string[];
  stderr: string;
  exited: Promise<number | null>;
  /** The stdout lines parsed; lines that are not JSON come back as `{ raw }`. */
  entries(): { level?: number; msg?: string; raw?: string; [field: string]: unknown }[];
  stop(): Promise<number | null>;
}

/** The node arguments and environment of `npm run serve`, so the test runs what operators run. */
function serveCommand() {
  const script = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.serve!;
  const words = script.split(/\s+/);
  const node = words.indexOf("node");
  const env = Object.fromEntries(words.slice(0, node).filter((w) => /^[A-Z_]+=/.test(w)).map((w) => w.split("=") as [string, string]));
  return { env, args: words.slice(node + 1) };
}

/** Ports and empty data directories for `count` instances, found before any starts so they can start at the same moment. */
export async function prepareInstances(count: number): Promise<{ port: number; dataDir: string }[]> {
  return Promise.all(
    Array.from({ length: count }, async () => ({ port: await freePort(), dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "stash-instance-")) })),
  );
}

/** Starts one instance now (no waiting); `env` is what docker-compose.yml would give it. */
export function spawnInstance(slot: { port: number; dataDir: string }, env: Record<string, string>): Instance {
  const serve = serveCommand();
  const url = `http://127.0.0.1:${slot.port}`;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...serve.env,
    HOST: "127.0.0.1",
    PORT: String(slot.port),
    APP_URL: url,
    DATA_DIR: slot.dataDir,
    LOG_LEVEL: "info",
    ...env,
  };
  const child = spawn(process.execPath, serve.args, { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  const instance: Instance = {
    url,
    child,
    stdout: [],
    stderr: "",
    exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
    entries: () =>
      instance.stdout.filter(Boolean).map((line) => {
        try {
          return JSON.parse(line) as ReturnType<Instance["entries"]>[number];
        } catch {
          return { raw: line };
        }
      }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const code = await instance.exited;
      fs.rmSync(slot.dataDir, { recursive: true, force: true });
      return code;
    },
  };
  let partial = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    instance.stdout.push(...lines);
  });
  child.stderr!.on("data", (chunk: Buffer) => (instance.stderr += chunk.toString()));
  return instance;
}

/** Waits until the instance answers /api/health with 200, or fails with its output when it exits or takes too long. */
export async function waitHealthy(instance: Instance, timeoutMs = 120_000): Promise<{ status: string; db: { status: string }; storage: { ok: boolean; kind: string } }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (instance.child.exitCode !== null) {
      throw new Error(`instance ${instance.url} exited with ${instance.child.exitCode}\n${instance.stderr}\n${instance.stdout.slice(-20).join("\n")}`);
    }
    const res = await fetch(`${instance.url}/api/health`).catch(() => null);
    if (res?.status === 200) return res.json();
    await res?.arrayBuffer();
    if (Date.now() > until) throw new Error(`instance ${instance.url} not healthy after ${timeoutMs} ms\n${instance.stderr}\n${instance.stdout.slice(-20).join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The AWS SDK's notice that its releases after January 2027 need Node 22 (Node 20 is the runtime). */
const SDK_NODE_NOTICE = /^\(node:\d+\) Warning: NodeVersionSupportWarning: [\s\S]*?\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)\n/;

/**
 * Lines an operator would read as trouble: warnings and errors, anything on stdout that is not a log
 * line, and whatever reaches stderr besides the SDK's notice about Node versions.
 */
export function troubleLines(instance: Instance): string[] {
  const logged = instance
    .entries()
    .filter((entry) => entry.raw !== undefined || (entry.level ?? 0) >= 40)
    .map((entry) => entry.raw ?? JSON.stringify(entry));
  const stderr = instance.stderr.replace(SDK_NODE_NOTICE, "").split("\n").filter(Boolean);
  return [...logged, ...stderr];
}
