import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

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
      // Unit tests sit beside the code they test and need no build, database or server (docs/testing.md).
      {
        extends: true,
        test: { name: "unit", include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "db/**/*.test.ts", "storage/**/*.test.ts"] },
      },
      {
        extends: true,
        test: { name: "integration", include: ["tests/**/*.test.ts"], globalSetup: ["tests/helpers/global-setup.ts"] },
      },
    ],
  },
});
