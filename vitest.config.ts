import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

/** Tests that need build/ itself: the browser's assets, the production entry, the one bundle's module graph. */
const NEED_BUILD = [
  "tests/e2e/**/*.test.ts",
  "tests/unit/module-graph.test.ts",
  "tests/integration/production-entry.test.ts",
  "tests/integration/instance-crash.test.ts",
  "tests/integration/concurrent-start.test.ts",
  // Sets up through the portal in Chromium, which needs the client bundle.
  "tests/compat/script-clients.test.ts",
];

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    // Under two cores shared with browsers, ffmpeg and a second worker, a heavy test can take 3-4x its quiet time.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    fileParallelism: true,
    projects: [
      // Unit tests sit beside the code they test and need no build, database or server (docs/testing.md).
      // They hold no state between files, so a worker keeps its loaded modules for the next file: the app's
      // module graph is loaded once per worker instead of once per file (about 5x faster in all).
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "db/**/*.test.ts", "storage/**/*.test.ts"],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts", "tests/compat/**/*.test.ts"],
          exclude: NEED_BUILD,
          globalSetup: ["tests/helpers/setup-source.ts"],
        },
      },
      { extends: true, test: { name: "build", include: NEED_BUILD, globalSetup: ["tests/helpers/setup-build.ts"] } },
    ],
  },
});
