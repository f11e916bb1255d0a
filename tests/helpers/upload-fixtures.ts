import sharp from "sharp";
import type { ServerId, TeamId } from "../../app/lib/ids.ts";
import type { TestServer } from "./server.ts";

/** A real PNG of the given size (noise, so it does not compress to nothing). */
export async function png(width = 8, height = 6): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 37) % 251;
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

export async function jpeg(width = 8, height = 6): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } }).jpeg().toBuffer();
}

/** A PDF-typed file of exactly `size` bytes: the type comes from the magic bytes, the rest is filler. */
export function pdf(size: number): Buffer {
  const head = Buffer.from("%PDF-1.4\n%\xE2\xE3\xCF\xD3\n", "latin1");
  const tail = Buffer.from("\n%%EOF\n");
  const body = Buffer.alloc(Math.max(0, size - head.length - tail.length), "A");
  return Buffer.concat([head, body, tail]).subarray(0, Math.max(size, head.length + tail.length));
}

export function form(parts: { field: string; data: Buffer | string; filename?: string; type?: string }[]): FormData {
  const fd = new FormData();
  for (const part of parts) {
    if (part.filename !== undefined) fd.append(part.field, new Blob([typeof part.data === "string" ? part.data : new Uint8Array(part.data)], { type: part.type ?? "application/octet-stream" }), part.filename);
    else fd.append(part.field, String(part.data));
  }
  return fd;
}

/** Everything an upload could leave behind for a server: rows, blobs, temp files, usage counters. */
export async function traceOf(server: TestServer, account: { teamId: TeamId; serverId: ServerId }) {
  const { db, blobs } = server.ctx;
  const rows = await db.selectFrom("files").select("id").where("server_id", "=", account.serverId).execute();
  const keys: string[] = [];
  for await (const blob of blobs.list(`${account.serverId}/`)) keys.push(blob.key);
  const usage = await db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", account.teamId).executeTakeFirstOrThrow();
  const srv = await db.selectFrom("servers").select("storage_used_bytes").where("id", "=", account.serverId).executeTakeFirstOrThrow();
  const daily = await db.selectFrom("usage_daily").select(["uploads", "upload_bytes"]).where("server_id", "=", account.serverId).executeTakeFirst();
  return {
    rows: rows.length,
    blobs: keys.sort(),
    usedBytes: usage.used_bytes,
    serverUsedBytes: srv.storage_used_bytes,
    uploads: daily?.uploads ?? 0,
    uploadBytes: daily?.upload_bytes ?? 0,
  };
}
