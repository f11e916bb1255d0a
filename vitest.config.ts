import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

/** Tests that need build/ itself: the browser's assets, the production entry, the one bundle's module graph. */
const NEED_BUILD = [
  "tests/e2e/**/*.test.ts",
  "tests/unit/module-graph.test.ts",
  "tests/integration/production-entry.test.ts",
  "tests/integration/instance-crash.test.ts",
  // Sets up through the portal in Chromium, which needs the client bundle.
  "tests/compat/script-clients.test.ts",
];

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    fileParallelism: true,
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], exclude: NEED_BUILD } },
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
