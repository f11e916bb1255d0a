import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GB } from "../../app/lib/plans.ts";
import { seedAccount } from "../helpers/api-seed.ts";
import { expectApiResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { usingPostgres } from "../helpers/test-db.ts";
import { form, pdf } from "../helpers/upload-fixtures.ts";

let server: TestServer;

beforeAll(async () => {
  if (usingPostgres) server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

describe.runIf(usingPostgres)("concurrent uploads against the quota (PostgreSQL)", () => {
  it("let at most as many land as fit, and stored usage equals the sum of stored files", async () => {
    const account = await seedAccount(server.ctx);
    const size = 64 * 1024;
    const base = 5 * GB - 10 * size;
    await server.ctx.db.updateTable("account_usage").set({ used_bytes: base }).where("team_id", "=", account.teamId).execute();

    const file = pdf(size);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.request("/api/upload", { method: "POST", headers: { "x-api-key": account.key }, body: form([{ field: "file", data: file, filename: "a.pdf" }]) }),
      ),
    );
    const statuses = await Promise.all(
      results.map(async (res) => {
        const body = await expectApiResponse(res, "post", "/api/upload");
        if (res.status !== 201) expect(body.code).toBe("quota_exceeded");
        return res.status;
      }),
    );
    const landed = statuses.filter((s) => s === 201).length;
    expect(landed).toBeLessThanOrEqual(10);
    expect(landed).toBeGreaterThan(0);

    const rows = await server.ctx.db.selectFrom("files").select("size_bytes").where("server_id", "=", account.serverId).execute();
    expect(rows).toHaveLength(landed);
    const stored = rows.reduce((sum, r) => sum + r.size_bytes, 0);
    const usage = await server.ctx.db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", account.teamId).executeTakeFirstOrThrow();
    expect(usage.used_bytes - base).toBe(stored);
    expect(usage.used_bytes).toBeLessThanOrEqual(5 * GB);
    const srv = await server.ctx.db.selectFrom("servers").select("storage_used_bytes").where("id", "=", account.serverId).executeTakeFirstOrThrow();
    expect(srv.storage_used_bytes).toBe(stored);
    const blobs: string[] = [];
    for await (const blob of server.ctx.blobs.list(`${account.serverId}/`)) blobs.push(blob.key);
    expect(blobs).toHaveLength(landed);
  });
});
