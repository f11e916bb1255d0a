import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { DEFAULT_FILE_TYPES } from "../../app/lib/file-types.ts";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { createUser } from "../../app/services/accounts/users.server.ts";
import { gifWithFrames, testAudio, testClip } from "../helpers/media-fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, jpeg, pdf, png, traceOf } from "../helpers/upload-fixtures.ts";
import type { ServerId, TeamId } from "../../app/lib/ids.ts";
import { findPersonalTeam } from "../../app/services/teams/teams.server.ts";

let server: TestServer;
let account: { teamId: TeamId; serverId: ServerId; key: string };

test.beforeAll(async ({ server: started }) => {
  server = started;
  // Exactly what a new server gets: no allowedFileTypes, no other setting widened or narrowed.
  const user = await createUser(server.ctx.db, { email: "new-owner@example.com", verified: true });
  const teamId = (await findPersonalTeam(server.ctx.db, user.id))!;
  const created = await createServer(server.ctx.db, { teamId, name: "Fresh Server" });
  const { secret } = await createApiKey(server.ctx.db, { serverId: created.id, teamId, name: "game server" });
  account = { teamId, serverId: created.id, key: secret };
});

async function upload(data: Buffer, filename: string, type = "application/octet-stream") {
  const res = await server.request("/api/upload", {
    method: "POST",
    headers: { Authorization: account.key },
    body: form([{ field: "file", data, filename, type }]),
  });
  return { res, body: await res.json() };
}

describe("a server created with the defaults", { timeout: 120_000 }, () => {
  it("allows every image, video and audio type of the catalogue, and pdf", async () => {
    const row = await server.ctx.db.selectFrom("servers").select("allowed_file_types").where("id", "=", account.serverId).executeTakeFirstOrThrow();
    expect(row.allowed_file_types).toEqual([...DEFAULT_FILE_TYPES]);
  });

  const image = () => sharp({ create: { width: 40, height: 30, channels: 3, background: "#225588" } });
  // [what, bytes, the name the client sends, the MIME types Stash may answer]
  const cases: [string, () => Promise<Buffer> | Buffer, string, string | string[]][] = [
    ["WebP", () => image().webp().toBuffer(), "photo.webp", "image/webp"],
    ["AVIF", () => image().avif().toBuffer(), "photo.avif", "image/avif"],
    // New servers store PNG and JPEG screenshots as WebP when that is smaller (convert_to_webp is on by default).
    ["PNG", () => png(40, 30), "screenshot.png", ["image/png", "image/webp"]],
    ["JPEG", () => jpeg(40, 30), "photo.jpg", ["image/jpeg", "image/webp"]],
    ["GIF", () => gifWithFrames(2), "reaction.gif", "image/gif"],
    ["MP4", () => testClip("mp4", 1, "64x48"), "clip.mp4", "video/mp4"],
    ["WebM video", () => testClip("webm", 1, "64x48"), "clip.webm", "video/webm"],
    ["WebM audio-only (a MediaRecorder voice note)", () => testAudio("webm"), "voice.webm", "audio/webm"],
    ["Ogg/Opus", () => testAudio("ogg"), "voice.ogg", "audio/ogg"],
    ["MP3", () => testAudio("mp3"), "sound.mp3", "audio/mpeg"],
    ["WAV", () => testAudio("wav"), "sound.wav", "audio/wav"],
    ["M4A", () => testAudio("m4a"), "memo.m4a", "audio/mp4"],
  ];

  it.each(cases)("accepts %s", async (_what, make, filename, expected) => {
    const data = await make();
    const { res, body } = await upload(data, filename);
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect([expected].flat()).toContain(body.mime_type);
    const stored = await server.ctx.db.selectFrom("files").select("mime_type").where("id", "=", body.id).executeTakeFirstOrThrow();
    expect(stored.mime_type).toBe(body.mime_type);
    // The bytes are served back under the stored type.
    const served = await server.request(new URL(body.url).pathname);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toContain(body.mime_type);
  });

  it("accepts a PDF, as an MDT attaches a report", async () => {
    const { res, body } = await upload(pdf(3000), "report.pdf", "application/pdf");
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.mime_type).toBe("application/pdf");
    const served = await server.request(new URL(body.url).pathname);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toContain("application/pdf");
  });

  it("refuses a 7-Zip archive with 415 naming the allowed types by group, and keeps nothing", async () => {
    const before = await traceOf(server, account);
    const archive = Buffer.concat([Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00, 0x04]), Buffer.alloc(200, 0x21)]);
    const { res, body } = await upload(archive, "evidence.7z");
    expect(res.status).toBe(415);
    expect(body).toMatchObject({
      success: false,
      code: "unsupported_file_type",
      detected_type: "application/x-7z-compressed",
      allowed_types: [...DEFAULT_FILE_TYPES],
      allowed_types_by_group: [
        { label: "Images", types: ["jpg", "png", "gif", "webp", "avif", "heic"] },
        { label: "Video", types: ["mp4", "webm", "mov", "avi", "mkv"] },
        { label: "Audio", types: ["mp3", "ogg", "weba", "wav", "m4a", "aac"] },
        { label: "Documents", types: ["pdf"] },
      ],
    });
    expect(body.error).toBe(
      "File type 7z (application/x-7z-compressed) is not allowed on this server. Allowed: Images (jpg, png, gif, webp, avif, heic), Video (mp4, webm, mov, avi, mkv), Audio (mp3, ogg, weba, wav, m4a, aac), Documents (pdf)",
    );
    expect(await traceOf(server, account)).toEqual(before);
  });

  it("stores a GTA resource as its extension's type, served as an attachment, once the owner allows it", async () => {
    const texture = Buffer.concat([Buffer.from("RSC7", "ascii"), Buffer.from([0x0d, 0, 0, 0]), Buffer.alloc(4096, 0x5a)]);
    const refused = await upload(texture, "police_car.ytd");
    expect(refused.res.status).toBe(415);
    expect(refused.body.detected_type).toBe("application/octet-stream");

    await server.ctx.db
      .updateTable("servers")
      .set({ allowed_file_types: [...DEFAULT_FILE_TYPES, "ytd"] })
      .where("id", "=", account.serverId)
      .execute();
    const { res, body } = await upload(texture, "police_car.ytd");
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.mime_type).toBe("application/octet-stream");
    expect(body.filename).toMatch(/\.ytd$/);
    const served = await server.request(new URL(body.url).pathname);
    expect(served.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(Buffer.from(await served.arrayBuffer()).equals(texture)).toBe(true);
  });
});
