import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const LOGGER = pathToFileURL(path.resolve("app/services/platform/logger.server.ts")).href;

/** Starts `body` in a fresh Node process with `logger` made by createLogger("info"). */
function spawnWithLogger(body: string) {
  const script = `const { createLogger } = await import(${JSON.stringify(LOGGER)}); const logger = createLogger("info");\n${body}`;
  return spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
}

/** Runs `body` as spawnWithLogger does, to its end: its stdout lines and exit code. */
function runWithLogger(body: string): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  const child = spawnWithLogger(body);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, lines: stdout.split("\n").filter(Boolean), stderr })));
}

const messages = (lines: string[]) => lines.map((line) => (JSON.parse(line) as { msg: string }).msg);

describe("log lines on standard output", () => {
  it("a line logged just before the process exits is written, in order after the others", async () => {
    const run = await runWithLogger(`
      logger.info("first");
      await new Promise((resolve) => setTimeout(resolve, 20));
      for (let i = 0; i < 50; i++) logger.info({ i }, "burst");
      logger.fatal("shutdown failed");
      process.exit(3);
    `);
    expect(run.code).toBe(3);
    expect(messages(run.lines)).toEqual(["first", ...Array<string>(50).fill("burst"), "shutdown failed"]);
    expect(run.lines.slice(1, 51).map((line) => (JSON.parse(line) as { i: number }).i)).toEqual([...Array(50).keys()]);
    expect(JSON.parse(run.lines.at(-1)!)).toMatchObject({ level: 60, service: "stash" });
  });

  it("lines logged while the process keeps running appear without waiting for more", async () => {
    // The parent reads the line while the child is still alive: nothing holds lines back until a buffer fills.
    const child = spawnWithLogger(`logger.info("alone"); setInterval(() => {}, 1000);`);
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no line within 10 s")), 10_000);
        child.stdout.on("data", (chunk: Buffer) => {
          clearTimeout(timer);
          resolve(String(chunk));
        });
      });
      expect(JSON.parse(line)).toMatchObject({ level: 30, msg: "alone", service: "stash" });
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("many lines logged across turns of the event loop all arrive, in order", async () => {
    const run = await runWithLogger(`
      for (let turn = 0; turn < 20; turn++) {
        for (let i = 0; i < 500; i++) logger.info({ n: turn * 500 + i }, "request");
        await new Promise((resolve) => setImmediate(resolve));
      }
    `);
    expect(run.code).toBe(0);
    expect(run.lines.map((line) => (JSON.parse(line) as { n: number }).n)).toEqual([...Array(10_000).keys()]);
  });
});
