import { randomBytes } from "node:crypto";
import http from "node:http";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import type { FileRecord } from "../../db/schema.ts";
import { filePath, seedFile, seedOwner } from "../helpers/files.ts";
import type { TestServer } from "../helpers/server.ts";

// Files above the memory cache's per-file limit are sent from disk through reused read buffers
// (app/http/send-descriptor.server.ts): every byte must still belong to the file asked for.
let server: TestServer;
const files: { record: FileRecord; bytes: Buffer }[] = [];

test.beforeAll(async ({ server: started }) => {
  server = started;
  const owner = await seedOwner(server);
  // Sizes off the 256 KiB chunk boundary, and one empty file.
  for (const size of [1024 * 1024 + 7, 3 * 256 * 1024 - 1, 600_000, 0]) {
    const bytes = randomBytes(size);
    files.push({ record: await seedFile(server, owner, { bytes, mimeType: "application/octet-stream", extension: "bin" }), bytes });
  }
});

describe("large files from disk", () => {
  it("sends each whole file byte for byte, 40 downloads at once", async () => {
    const downloads = Array.from({ length: 40 }, (_, i) => files[i % files.length]);
    const bodies = await Promise.all(
      downloads.map(async (file) => {
        const res = await server.request(filePath(file.record));
        expect(res.status).toBe(200);
        expect(res.headers.get("content-length")).toBe(String(file.bytes.length));
        return Buffer.from(await res.arrayBuffer());
      }),
    );
    bodies.forEach((body, i) => expect(body.equals(downloads[i].bytes), `download ${i}`).toBe(true));
  });

  it("answers ranges that cross chunk boundaries with exactly those bytes", async () => {
    const { record, bytes } = files[0];
    for (const [start, end] of [[262_000, 524_400], [0, 0], [bytes.length - 5, bytes.length - 1], [1, bytes.length - 2]]) {
      const res = await server.request(filePath(record), { headers: { Range: `bytes=${start}-${end}` } });
      expect(res.status).toBe(206);
      expect(res.headers.get("content-range")).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(start, end + 1))).toBe(true);
    }
  });

  it("keeps serving correctly after clients walk away mid-download", async () => {
    const { record, bytes } = files[0];
    const url = new URL(filePath(record), server.url);
    await Promise.all(
      Array.from({ length: 10 }, () =>
        new Promise<void>((resolve, reject) => {
          const req = http.get(url, (res) => {
            res.once("data", () => {
              req.destroy();
              resolve();
            });
          });
          req.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" ? resolve() : reject(error)));
        }),
      ),
    );
    const res = await server.request(filePath(record));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
