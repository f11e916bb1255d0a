/**
 * Measures the test loop (docs/testing.md), not the product: how long one integration file takes
 * after an edit, how long the whole suite takes, and how many waits and polls the tests still hold.
 * A script, not a timed test: `npx tsx bench/test-loop.ts [--suite] [--file tests/integration/x.test.ts]`.
 * Each timing runs the real command; the figures go into docs/testing.md.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const WAIT = /setTimeout\(|expect\.poll\(|[^.\w]waitFor\(|[^.\w]sleep\(|waitForTimeout\(/g;

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(full);
    return /\.(test\.ts|ts)$/.test(entry.name) ? [full] : [];
  });
}

/** Waits and polls: timers, expect.poll, hand-written waitFor/sleep loops, Playwright's fixed waits. */
function countWaits(): { total: number; byFile: [string, number][] } {
  const byFile = testFiles("tests")
    .map((file) => [file, fs.readFileSync(file, "utf8").match(WAIT)?.length ?? 0] as [string, number])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  return { total: byFile.reduce((sum, [, n]) => sum + n, 0), byFile };
}

function timed(command: string, args: string[], env: NodeJS.ProcessEnv = {}): { seconds: number; ok: boolean } {
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: "ignore", env: { ...process.env, ...env } });
  return { seconds: (performance.now() - started) / 1000, ok: result.status === 0 };
}

const args = process.argv.slice(2);
const file = args.includes("--file") ? args[args.indexOf("--file") + 1]! : "tests/integration/downloads.test.ts";
const load = () => os.loadavg().map((n) => n.toFixed(1)).join(" / ");

console.log(`# Test loop, ${new Date().toISOString()}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, load ${load()}`);
console.log(`database: ${process.env.TEST_DATABASE_URL ? "PostgreSQL (TEST_DATABASE_URL)" : "PGlite"}`);

// An edit: the newest source is newer than build/, so the integration tests load the sources.
const edited = "app/lib/format.ts";
const now = new Date();
fs.utimesSync(edited, now, now);
const afterEdit = timed("npx", ["vitest", "run", file]);
console.log(`- one integration file after an edit (${file}, from source): ${afterEdit.seconds.toFixed(1)} s${afterEdit.ok ? "" : " (FAILED)"}`);
const beforeWas = timed("npm", ["run", "build"]);
console.log(`- what the same edit cost before in build time alone (npm run build): ${beforeWas.seconds.toFixed(1)} s`);
const fromBuild = timed("npx", ["vitest", "run", file]);
console.log(`- the same file with build/ current (from build): ${fromBuild.seconds.toFixed(1)} s${fromBuild.ok ? "" : " (FAILED)"}`);

if (args.includes("--suite")) {
  const suite = timed("npm", ["test"]);
  console.log(`- the whole suite (npm test: typecheck, lint, build, every test): ${(suite.seconds / 60).toFixed(1)} min${suite.ok ? "" : " (FAILED)"}`);
}

const waits = countWaits();
console.log(`- waits and polls left in tests/: ${waits.total} in ${waits.byFile.length} files`);
for (const [name, n] of waits.byFile) console.log(`  - ${name}: ${n}`);
