import fs from "node:fs";
import { expect } from "vitest";
import sharp from "sharp";
import type { TestServer } from "./server.ts";
import type { DiscordStandIn } from "./discord-standin.ts";

export const EXPORT_NAME = "Los Santos RP - Logs - phone-photos [1012345678901234567].json";
export const CHANNEL = "1012345678901234567";
/** The attachments of the DiscordChatExporter fixture; the last one is deleted on Discord. */
export const FIXTURE_ATTACHMENTS = [
  { attachmentId: "1187654321098765432", messageId: "1187654321098760001", filename: "IMG_2041.png" },
  { attachmentId: "1187654321098765433", messageId: "1187654321098760002", filename: "bank_cam_1.jpg" },
  { attachmentId: "1187654321098765434", messageId: "1187654321098760002", filename: "bank_cam_2.jpg" },
  { attachmentId: "1187654321098765499", messageId: "1187654321098760004", filename: "deleted_later.png" },
] as const;

/** A distinct real image per seed, so no two share bytes. */
export async function photo(seed: number, format: "png" | "jpeg" = "png"): Promise<Buffer> {
  const width = 24 + seed;
  const raw = Buffer.alloc(width * 16 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * (seed + 7) * 31) % 251;
  const image = sharp(raw, { raw: { width, height: 16, channels: 3 } });
  return format === "png" ? image.png().toBuffer() : image.jpeg().toBuffer();
}

/** The fixture's attachments on the stand-in; `deleted_later.png` deleted, as the export's owner found it. */
export async function seedFixtureAttachments(discord: DiscordStandIn): Promise<void> {
  for (const [index, a] of FIXTURE_ATTACHMENTS.entries()) {
    discord.add({ channelId: CHANNEL, ...a, bytes: await photo(index + 1, a.filename.endsWith(".jpg") ? "jpeg" : "png"), contentType: a.filename.endsWith(".jpg") ? "image/jpeg" : "image/png" });
  }
  discord.delete("1187654321098765499");
}

export function fixtureExport(mode: "remote" | "media"): Record<string, unknown> & { messages: Array<Record<string, unknown>> } {
  return JSON.parse(fs.readFileSync(`tests/fixtures/imports/${mode === "media" ? "dce-media/" : ""}${EXPORT_NAME}`, "utf8"));
}

export async function importRequest(server: TestServer, key: string, body: FormData | Record<string, unknown>): Promise<Response> {
  return server.request("/api/imports", {
    method: "POST",
    headers: { "x-api-key": key, ...(body instanceof FormData ? {} : { "Content-Type": "application/json" }) },
    body: body instanceof FormData ? body : JSON.stringify(body),
  });
}

export async function importView(server: TestServer, key: string, id: string) {
  const res = await server.request(`/api/imports/${id}`, { headers: { "x-api-key": key } });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    import: { id: string; state: string; progress: { total: number; stored: number; duplicates: number; failed: number; percent: number }; failures: Array<{ cause: string; count: number }>; error: { code: string; message: string } | null; notes: string[]; log_entries: number; stored_bytes: number };
    report?: { rewrite: Array<{ table: string; sql: string; too_long: number; longest: number }>; failed_items: Array<{ url: string; cause: string; detail: string | null }> };
  };
}
