import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepOrphanBlobs } from "../../app/services/orphan-sweep.server.ts";
import { seedAccount } from "../helpers/api-seed.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { form, png } from "../helpers/upload-fixtures.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

describe("orphan blob sweep", () => {
  it("deletes old blobs without a file or variant row and keeps everything else", async () => {
    const account = await seedAccount(server.ctx);
    const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": account.key }, body: form([{ field: "file", data: await png(), filename: "a.png" }]) });
    const file = await res.json();
    const { blobs } = server.ctx;
    await blobs.put(`${account.serverId}/other/orphan.png`, Readable.from([Buffer.from("left by a crash")]));
    await blobs.put(`${account.serverId}/other/fresh.png`, Readable.from([Buffer.from("upload in flight")]));
    const old = new Date(Date.now() - 60 * 60_000);
    for (const key of [file.path, `${account.serverId}/other/orphan.png`]) {
      fs.utimesSync(path.join(server.dataDir, "files", key), old, old);
    }

    expect(await sweepOrphanBlobs(server.ctx)).toBe(1);
    expect(await blobs.head(`${account.serverId}/other/orphan.png`)).toBeNull();
    expect(await blobs.head(`${account.serverId}/other/fresh.png`)).not.toBeNull();
    expect(await blobs.head(file.path)).not.toBeNull();
  });
});
