/**
 * The one way a test file gets a running Stash: `import { test } from "../helpers/fixtures.ts"` (or
 * `stashTest(env)` for a file whose server needs settings of its own) and destructure what it needs.
 * `server` starts once per file on the first test or `test.beforeAll` that asks (embedded defaults,
 * PGlite or TEST_DATABASE_URL's PostgreSQL) and is closed, its database and data directory removed,
 * after the file's last test; `account` is a user with a server and a key (upload, read, delete) made
 * through the real services, `owner` a user signed in through the real /auth form; `browser` is the
 * system Chromium, launched once per file.
 */
import type { Browser } from "playwright-core";
import { test as base } from "vitest";
import { seedAccount, type SeededAccount } from "./api-seed.ts";
import { signUpAndSignIn, type SignedInUser } from "./auth.ts";
import { launchBrowser } from "./browser.ts";
import { startTestServer, type TestServer } from "./server.ts";

export interface StashFixtures {
  server: TestServer;
  account: SeededAccount;
  owner: SignedInUser;
  browser: Browser;
}

/**
 * The fixtures with `env` on top of the embedded defaults (a public URL, a cache size…). A function
 * is read when the server starts, so it may name a stand-in (Stripe, Discord) a `beforeAll` started.
 */
export function stashTest(env: Record<string, string> | (() => Record<string, string>) = {}) {
  return base.extend<StashFixtures>({
    server: [
      // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its first parameter's pattern
      async ({}, use) => {
        const server = await startTestServer(typeof env === "function" ? env() : env);
        await use(server);
        await server.close();
      },
      { scope: "file" },
    ],
    account: [async ({ server }, use) => use(await seedAccount(server.ctx, { permissions: ["upload", "read", "delete"] })), { scope: "file" }],
    owner: [async ({ server }, use) => use(await signUpAndSignIn(server)), { scope: "file" }],
    browser: [
      // eslint-disable-next-line no-empty-pattern -- as above
      async ({}, use) => {
        const browser = await launchBrowser();
        await use(browser);
        await browser.close();
      },
      { scope: "file" },
    ],
  });
}

export const test = stashTest();
