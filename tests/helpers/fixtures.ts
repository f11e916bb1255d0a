/**
 * The one way a test file gets a running Stash: `import { test } from "../helpers/fixtures.ts"` and
 * destructure what it needs. `server` starts once per file on the first test that asks (embedded
 * defaults, PGlite or TEST_DATABASE_URL's PostgreSQL) and is closed, its database and data directory
 * removed, after the file's last test; `account` is a user with a server and a key (upload, read,
 * delete) made through the real services, `owner` a user signed in through the real /auth form.
 */
import { test as base } from "vitest";
import { seedAccount, type SeededAccount } from "./api-seed.ts";
import { signUpAndSignIn, type SignedInUser } from "./auth.ts";
import { startTestServer, type TestServer } from "./server.ts";

export interface StashFixtures {
  server: TestServer;
  account: SeededAccount;
  owner: SignedInUser;
}

export const test = base.extend<StashFixtures>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its first parameter's pattern
    async ({}, use) => {
      const server = await startTestServer();
      await use(server);
      await server.close();
    },
    { scope: "file" },
  ],
  account: [async ({ server }, use) => use(await seedAccount(server.ctx, { permissions: ["upload", "read", "delete"] })), { scope: "file" }],
  owner: [async ({ server }, use) => use(await signUpAndSignIn(server)), { scope: "file" }],
});

// Started before the file's first test, under the hook timeout rather than that test's own.
test.beforeAll(async ({ server }) => {
  void server;
});
