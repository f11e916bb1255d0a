import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_FILE_TYPES,
  describeAllowedTypes,
  FILE_TYPE_GROUPS,
  groupAllowedTypes,
  normaliseFileTypes,
} from "../../app/lib/file-types.ts";
import { serverFormSchema } from "../../app/lib/server-form.ts";
import { assertTypeAllowed, detectType, isTypeAllowed, SNIFF_BYTES, webmCodecIds } from "../../app/services/uploads/accepted-types.server.ts";
import { ERROR_STATUS } from "../../app/http/api-response.server.ts";
import type { DomainError } from "../../app/services/platform/domain-error.server.ts";
import { testAudio, testClip } from "../helpers/media-fixtures.ts";

const sniff = (bytes: Buffer, filename?: string) => detectType(bytes.subarray(0, SNIFF_BYTES), filename);

/** A resource container header as GTA V's tools write it: magic, version, flags. */
function rsc(magic: "RSC7" | "RSC8"): Buffer {
  return Buffer.concat([Buffer.from(magic, "ascii"), Buffer.from([0x0d, 0, 0, 0, 0x80, 0x01, 0, 0x40]), Buffer.alloc(200, 0x11)]);
}

describe("the file-type catalogue", () => {
  it("groups the types, and new servers allow every image, video and audio type and pdf (the spec's default selection plus media)", () => {
    expect(FILE_TYPE_GROUPS.map((g) => g.label)).toEqual(["Images", "Video", "Audio", "Documents", "Game resources"]);
    expect(DEFAULT_FILE_TYPES).toEqual([
      "jpg", "png", "gif", "webp", "avif", "heic",
      "mp4", "webm", "mov", "avi", "mkv",
      "mp3", "ogg", "weba", "wav", "m4a", "aac",
      "pdf",
    ]);
    expect(normaliseFileTypes(["jpg", "jpeg", "png", "gif", "mp4", "pdf"]).types.every((t) => DEFAULT_FILE_TYPES.includes(t))).toBe(true);
    expect(DEFAULT_FILE_TYPES).not.toContain("txt");
  });

  it("folds aliases and group names into catalogue names, in catalogue order", () => {
    expect(normaliseFileTypes(["opus", "JPEG", ".png", "jpg"])).toEqual({ types: ["jpg", "png", "ogg"], unknown: [] });
    expect(normaliseFileTypes(["audio", "exe"])).toEqual({ types: ["mp3", "ogg", "weba", "wav", "m4a", "aac"], unknown: ["exe"] });
    expect(serverFormSchema.parse({ name: "A", allowedFileTypes: ["jpeg", "webp", "weba"] }).allowedFileTypes).toEqual(["jpg", "webp", "weba"]);
    const refused = serverFormSchema.safeParse({ name: "A", allowedFileTypes: [] });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("Select at least one file type");
  });

  it("describes an allow-list by group, old MIME entries under Other", () => {
    expect(describeAllowedTypes(["jpg", "jpeg", "png", "gif", "mp4", "pdf"])).toBe("Images (jpg, png, gif), Video (mp4), Documents (pdf)");
    expect(groupAllowedTypes(["weba", "image/*"])).toEqual([
      { label: "Audio", types: ["weba"] },
      { label: "Other", types: ["image/*"] },
    ]);
  });
});

describe("type detection", { timeout: 60_000 }, () => {
  it("tells an audio-only WebM (a MediaRecorder voice note) from a WebM with video", async () => {
    const voice = testAudio("webm");
    expect(webmCodecIds(voice.subarray(0, SNIFF_BYTES))).toEqual(["A_OPUS"]);
    expect(await sniff(voice)).toEqual({ ext: "weba", mime: "audio/webm" });

    const clip = testClip("webm", 1, "64x48");
    expect(webmCodecIds(clip.subarray(0, SNIFF_BYTES))).toContain("V_VP9");
    expect(await sniff(clip)).toEqual({ ext: "webm", mime: "video/webm" });
  });

  it("detects every audio format as audio, with one stored MIME type per format", async () => {
    expect(await sniff(testAudio("ogg"))).toEqual({ ext: "opus", mime: "audio/ogg" });
    expect(await sniff(testAudio("mp3"))).toEqual({ ext: "mp3", mime: "audio/mpeg" });
    expect(await sniff(testAudio("wav"))).toEqual({ ext: "wav", mime: "audio/wav" });
    expect(await sniff(testAudio("m4a"))).toEqual({ ext: "m4a", mime: "audio/mp4" });
    expect(await sniff(testAudio("aac"))).toEqual({ ext: "aac", mime: "audio/aac" });
  });

  it("detects modern images from their bytes", async () => {
    const image = sharp({ create: { width: 8, height: 8, channels: 3, background: "#336699" } });
    expect(await sniff(await image.clone().webp().toBuffer())).toEqual({ ext: "webp", mime: "image/webp" });
    expect(await sniff(await image.clone().avif().toBuffer())).toEqual({ ext: "avif", mime: "image/avif" });
  });

  it("names a GTA resource binary by the client's extension, and only a known one", async () => {
    expect(await sniff(rsc("RSC7"), "police_car.ytd")).toEqual({ ext: "ytd", mime: "application/octet-stream" });
    expect(await sniff(rsc("RSC8"), "MAP.YMAP")).toEqual({ ext: "ymap", mime: "application/octet-stream" });
    expect(await sniff(rsc("RSC7"), "evil.html")).toEqual({ ext: "rsc", mime: "application/octet-stream" });
    expect(await sniff(rsc("RSC7"))).toEqual({ ext: "rsc", mime: "application/octet-stream" });
  });
});

describe("the allow-list check", () => {
  const weba = { ext: "weba", mime: "audio/webm" };
  const webm = { ext: "webm", mime: "video/webm" };
  const opus = { ext: "opus", mime: "audio/ogg" };
  const jpeg = { ext: "jpg", mime: "image/jpeg" };
  const bin = { ext: "bin", mime: "application/octet-stream" };

  it("admits a type by its name, an alias, a MIME type or a wildcard", () => {
    expect(isTypeAllowed(["jpeg"], jpeg)).toBe(true);
    expect(isTypeAllowed(["ogg"], opus)).toBe(true);
    expect(isTypeAllowed(["opus"], opus)).toBe(true);
    expect(isTypeAllowed(["audio/*"], weba)).toBe(true);
    expect(isTypeAllowed(["video/webm"], webm)).toBe(true);
    expect(isTypeAllowed(["*"], bin)).toBe(true);
  });

  it("keeps video WebM and audio WebM apart, and unknown binaries out of the game resources", () => {
    expect(isTypeAllowed(["webm"], weba)).toBe(false);
    expect(isTypeAllowed(["weba"], webm)).toBe(false);
    expect(isTypeAllowed(["ytd", "rsc"], bin)).toBe(false);
    expect(isTypeAllowed(["ytd"], { ext: "ytd", mime: "application/octet-stream" })).toBe(true);
  });

  it("refuses with 415 listing the allowed types by group", () => {
    let error: unknown;
    try {
      assertTypeAllowed(["jpg", "png", "mp4"], webm);
    } catch (caught) {
      error = caught;
    }
    expect(ERROR_STATUS[(error as DomainError).code]).toBe(415);
    expect(error).toMatchObject({
      code: "unsupported_file_type",
      message: "File type webm (video/webm) is not allowed on this server. Allowed: Images (jpg, png), Video (mp4)",
      details: {
        allowed_types: ["jpg", "png", "mp4"],
        allowed_types_by_group: [
          { label: "Images", types: ["jpg", "png"] },
          { label: "Video", types: ["mp4"] },
        ],
      },
    });
  });
});
