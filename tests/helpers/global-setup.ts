import { execFileSync } from "node:child_process";
import fs from "node:fs";

/** Integration tests serve the production build; build it when a run starts without one. */
export default function setup() {
  if (!fs.existsSync("build/server/index.js")) {
    execFileSync("npx", ["react-router", "build"], { stdio: "inherit" });
  }
}
