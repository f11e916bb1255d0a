import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const SOURCES = ["app", "server", "db", "storage", "server.ts", "vite.config.ts", "react-router.config.ts", "package.json"];
const BUILT = ["build/server/index.js", "build/host/server.mjs"];

function newestChange(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(entry).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stat.mtimeMs);
}

/**
 * Integration tests serve the production build; build it when it is missing or older than any
 * source, so a single-file run never pairs new code with stale built routes.
 */
export default function setup() {
  const built = Math.min(...BUILT.map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0)));
  if (built < Math.max(...SOURCES.map(newestChange))) {
    execFileSync("npm", ["run", "build"], { stdio: "inherit" });
  }
}
