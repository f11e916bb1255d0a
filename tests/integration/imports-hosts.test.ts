import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stashTest } from "../helpers/fixtures.ts";
import { seedAccount } from "../helpers/api-seed.ts";
import { startFivemanageStandIn, startZiplineStandIn, type FivemanageStandIn, type ZiplineStandIn } from "../helpers/host-standins.ts";
import { importRequest, importView, photo } from "../helpers/imports.ts";
import { zipOf } from "../helpers/zips.ts";
import { traceOf } from "../helpers/upload-fixtures.ts";
import { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import { BACKGROUND_JOBS } from "../../app/services/maintenance/background-jobs.server.ts";
import type { TestServer } from "../helpers/server.ts";

let fivemanage: FivemanageStandIn;
let zipline: ZiplineStandIn;
beforeAll(async () => {
  [fivemanage, zipline] = await Promise.all([startFivemanageStandIn(), startZiplineStandIn()]);
});
afterAll(async () => {
  await Promise.all([fivemanage.close(), zipline.close()]);
});

// The Zipline instance is one the owner names, on loopback here: a self-hosted Stash beside it may reach it.
const test = stashTest(() => ({ FIVEMANAGE_API_BASE: fivemanage.apiBase, OUTBOUND_ALLOW_PRIVATE_NETWORKS: "true" }));
let server: TestServer;
test.beforeAll(async ({ server: started }) => {
  server = started;
});

describe("Fivemanage", () => {
  it("lists the customer's files page by page with their key and brings each from Fivemanage's storage", async () => {
    const account = await seedAccount(server.ctx, { permissions: ["upload", "read"] });
    for (let i = 0; i < 105; i++) fivemanage.add({ name: `mugshot_${i}.png`, bytes: await photo(300 + i), contentType: "image/png" });
    const res = await importRequest(server, account.key, { source: "fivemanage", api_key: fivemanage.apiKey, category: "mugshots" });
    expect(res.status).toBe(202);
    const { import: created } = await res.json();
    await server.runJob(BACKGROUND_JOBS.imports);
    const { import: done } = await importView(server, account.key, created.id);
    expect(done).toMatchObject({ state: "finished", progress: { total: 105, stored: 105, failed: 0 } });
    expect(fivemanage.pages).toEqual([1, 2]);
    const files = await server.ctx.db.selectFrom("files").select(["category", "original_filename", "metadata"]).where("server_id", "=", account.serverId).execute();
    expect(files.every((f) => f.category === "mugshots")).toBe(true);
    expect(files.map((f) => f.original_filename)).toContain("mugshot_104.png");
    expect(files[0]!.metadata).toMatchObject({ source: "fivemanage", original_url: expect.stringMatching(/\/storage\/mugshot_\d+\.png$/) });
    expect((await server.ctx.db.selectFrom("imports").select("secret").where("id", "=", created.id).executeTakeFirstOrThrow()).secret).toBeNull();
  });

  it("a refused key ends the import saying so", async () => {
    const account = await seedAccount(server.ctx, { permissions: ["upload", "read"] });
    const { import: created } = await (await importRequest(server, account.key, { source: "fivemanage", api_key: "fm_wrong" })).json();
    await server.runJob(BACKGROUND_JOBS.imports);
    const { import: failed } = await importView(server, account.key, created.id);
    expect(failed).toMatchObject({ state: "failed", error: { code: "invalid_credentials", message: expect.stringMatching(/^Fivemanage refused the API key \(HTTP 401\)/) } });
  });
});

describe("a Zipline export", () => {
  it("fetches each file it lists from the instance's raw route, leaving out what the instance no longer has", async () => {
    const account = await seedAccount(server.ctx, { permissions: ["upload", "read"] });
    zipline.add({ name: "aB3dE9.png", bytes: await photo(400), contentType: "image/png" });
    zipline.add({ name: "Zx81Qk.jpg", bytes: await photo(401, "jpeg"), contentType: "image/jpeg" });
    const body = new FormData();
    body.append("source", "zipline");
    body.append("instance_url", zipline.url);
    body.append("file", new Blob([fs.readFileSync("tests/fixtures/imports/zipline-export-v3.json")]), "zipline_export.json");
    const res = await importRequest(server, account.key, body);
    expect(res.status).toBe(202);
    const { import: created } = await res.json();
    await server.runJob(BACKGROUND_JOBS.imports);
    const { import: done, report } = await importView(server, account.key, created.id);
    expect(done.progress).toMatchObject({ total: 3, stored: 2, failed: 1 });
    expect(report!.failed_items).toEqual([expect.objectContaining({ url: `${zipline.url}/r/gone00.png`, cause: "not_found" })]);
    const names = await server.ctx.db.selectFrom("files").select("original_filename").where("server_id", "=", account.serverId).execute();
    expect(names.map((n) => n.original_filename).sort()).toEqual(["evidence_4471.jpg", "mugshot_tommy.png"]);
    const map = await (await server.request(`/api/imports/${created.id}/map.json`, { headers: { "x-api-key": account.key } })).json();
    expect(map.map).toEqual(expect.arrayContaining([{ old: `${zipline.url}/r/aB3dE9.png`, new: expect.stringMatching(new RegExp(`^${server.url}/f/${account.serverId}/imported/`)) }]));
  });
});

describe("a folder of files as a zip", () => {
  it("stores each file, skipping hidden ones and macOS's __MACOSX folder, and reports those the pipeline refuses", async () => {
    const account = await seedAccount(server.ctx, { permissions: ["upload", "read"] });
    const zip = await zipOf([
      { name: "evidence/case-12/scene.png", data: await photo(500) },
      { name: "evidence/case-12/notes.txt", data: "not a media file" },
      { name: "evidence/.DS_Store", data: "x" },
      { name: "__MACOSX/evidence/._scene.png", data: "x" },
      { name: "evidence/mugshot.jpg", data: await photo(501, "jpeg") },
    ]);
    const body = new FormData();
    body.append("source", "folder");
    body.append("category", "evidence");
    body.append("file", new Blob([new Uint8Array(zip)]), "evidence.zip");
    const { import: created } = await (await importRequest(server, account.key, body)).json();
    await server.runJob(BACKGROUND_JOBS.imports);
    const { import: done, report } = await importView(server, account.key, created.id);
    expect(done.progress).toMatchObject({ total: 3, stored: 2, failed: 1 });
    expect(report!.failed_items).toEqual([expect.objectContaining({ url: "evidence/case-12/notes.txt", cause: "type_not_allowed" })]);
  });
});

describe("a team whose storage is full", () => {
  it("stores nothing, counts each file under the quota cause, and uses no storage", async () => {
    const account = await seedAccount(server.ctx, { permissions: ["upload", "read"] });
    const quota = await getAccountQuota(server.ctx.db, account.teamId);
    await server.ctx.db.updateTable("account_usage").set({ used_bytes: quota.quotaBytes - 10 }).where("team_id", "=", account.teamId).execute();
    const zip = await zipOf(await Promise.all([0, 1, 2].map(async (i) => ({ name: `p${i}.png`, data: await photo(600 + i) }))));
    const body = new FormData();
    body.append("source", "folder");
    body.append("file", new Blob([new Uint8Array(zip)]), "p.zip");
    const before = await traceOf(server, account);
    const { import: created } = await (await importRequest(server, account.key, body)).json();
    await server.runJob(BACKGROUND_JOBS.imports);
    const { import: done } = await importView(server, account.key, created.id);
    expect(done).toMatchObject({ state: "finished", progress: { total: 3, stored: 0, failed: 3 }, failures: [{ cause: "quota", label: "Storage quota full", count: 3 }] });
    expect(await traceOf(server, account)).toEqual(before);
  });
});
