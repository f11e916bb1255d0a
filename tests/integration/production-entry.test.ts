import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-entry-"));

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The node arguments and environment `npm run serve` (what `npm start` ends in) gives the host. */
function serveCommand() {
  const script = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.serve!;
  const words = script.split(/\s+/);
  const node = words.indexOf("node");
  const env = Object.fromEntries(words.slice(0, node).filter((w) => /^[A-Z_]+=/.test(w)).map((w) => w.split("=") as [string, string]));
  return { env, args: words.slice(node + 1) };
}

// `npm start` and the Docker image run the bundled host with plain node; this is that process, started as `npm run serve` starts it.
describe("the production entry, build/host/server.mjs", () => {
  it("serves on the embedded defaults and stops cleanly on SIGTERM", { timeout: 120_000 }, async () => {
    const serve = serveCommand();
    expect(serve.args.at(-1)).toBe("build/host/server.mjs");
    const env: NodeJS.ProcessEnv = { ...process.env, ...serve.env, HOST: "127.0.0.1", PORT: "0", DATA_DIR: dataDir, LOG_LEVEL: "info" };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, serve.args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

    const listening = await new Promise<{ url: string; db: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "Stash is listening" line in 60 s\n${stdout}\n${stderr}`)), 60_000);
      const check = () => {
        const line = stdout
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as { msg?: string; url?: string; db?: string })
          .find((entry) => entry.msg === "Stash is listening");
        if (line?.url && line.db) {
          clearTimeout(timer);
          resolve({ url: line.url, db: line.db });
        }
      };
      child.stdout.on("data", check);
      void exited.then((code) => reject(new Error(`exited with ${code}\n${stdout}\n${stderr}`)));
    });
    expect(listening.db).toBe("pglite");

    const health = await fetch(`${listening.url}/api/health`);
    expect(health.status).toBe(200);
    const home = await fetch(listening.url);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("<h1");
    expect((await fetch(`${listening.url}/f/nosuchserver/x/missing.png`)).status).toBe(404);
    // pino writes log lines asynchronously; the lines of requests answered just before a
    // stop must still reach stdout, flushed as the process exits.
    for (let i = 0; i < 300; i++) {
      const res = await fetch(`${listening.url}/f/nosuchserver/x/missing-${i}.png`);
      expect(res.status).toBe(404);
      await res.arrayBuffer();
    }

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stdout).toContain("shutting down");
    const logged = stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { msg?: string; url?: string; status?: number })
      .filter((entry) => entry.msg === "request" && entry.url?.startsWith("/f/nosuchserver/x/missing-"));
    expect(logged).toHaveLength(300);
    expect(new Set(logged.map((entry) => entry.status))).toEqual(new Set([404]));
    expect(stderr).not.toMatch(/error/i);
    // Nothing logged at error level either: the jobs run at start on a brand-new data directory.
    const errors = stdout.split("\n").filter((l) => l.startsWith("{") && (JSON.parse(l) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
  });
});
