/**
 * The edit loop's path: a test server whose app comes from the sources through one Vite server
 * (tests/helpers/app-source.ts), as every integration test runs when build/ is stale. The rest of the
 * suite runs from build/ on CI, so this file keeps the source path working there too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppSourceServer, type AppSourceServer } from "../helpers/app-source.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { form, png } from "../helpers/upload-fixtures.ts";
import { seedAccount } from "../helpers/api-seed.ts";

describe("a test server loaded from the sources", { timeout: 120_000 }, () => {
  let source: AppSourceServer;
  let server: TestServer;

  beforeAll(async () => {
    source = await startAppSourceServer();
    server = await startTestServer({}, { appSource: source.url });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await source?.close();
  });

  it("answers health, renders a page through React Router and stores an upload", async () => {
    expect(await (await server.request("/api/health")).json()).toMatchObject({ status: "ok" });
    const page = await server.request("/pricing");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<h1");

    const account = await seedAccount(server.ctx, { permissions: ["upload", "read"] });
    const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": account.key }, body: form([{ field: "file", data: await png(), filename: "shot.png", type: "image/png" }]) });
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as { url: string };
    expect((await fetch(url)).headers.get("content-type")).toMatch(/^image\//);
  });
});
