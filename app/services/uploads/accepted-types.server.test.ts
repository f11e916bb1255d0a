import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { assertTypeAllowed, detectType, isTypeAllowed, SNIFF_BYTES, webmCodecIds } from "~/services/uploads/accepted-types.server";
import { ERROR_STATUS } from "~/http/api-response.server";
import type { DomainError } from "~/services/platform/domain-error.server";
import { testAudio, testClip } from "../../../tests/helpers/media-fixtures.ts";

const sniff = (bytes: Buffer, filename?: string) => detectType(bytes.subarray(0, SNIFF_BYTES), filename);

/** A resource container header as GTA V's tools write it: magic, version, flags. */
function rsc(magic: "RSC7" | "RSC8"): Buffer {
  return Buffer.concat([Buffer.from(magic, "ascii"), Buffer.from([0x0d, 0, 0, 0, 0x80, 0x01, 0, 0x40]), Buffer.alloc(200, 0x11)]);
}

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

describe("detection without a known signature", () => {
  it("calls UTF-8 text text, even with a character cut at the end of the sniffed bytes", async () => {
    expect(await detectType(Buffer.from("plate: ABC 123\nofficer: Ünal 🚓"))).toEqual({ ext: "txt", mime: "text/plain" });
    const cut = Buffer.from("é".repeat(10)).subarray(0, 19);
    expect(await detectType(cut)).toEqual({ ext: "txt", mime: "text/plain" });
    expect(await detectType(Buffer.from("note: 🚓").subarray(0, -1))).toEqual({ ext: "txt", mime: "text/plain" });
  });

  it("calls bytes with NUL or invalid UTF-8 an unknown binary, never text", async () => {
    expect(await detectType(Buffer.from("hello\0world"))).toEqual({ ext: "bin", mime: "application/octet-stream" });
    const badSequence = Buffer.concat([Buffer.from("report "), Buffer.from([0xc3, 0x28]), Buffer.from(" continues here")]);
    expect(await detectType(badSequence)).toEqual({ ext: "bin", mime: "application/octet-stream" });
  });

  it("finds no codecs in bytes that are not an EBML header, and stops at the end of what it has", () => {
    expect(webmCodecIds(new Uint8Array(0))).toEqual([]);
    expect(webmCodecIds(Buffer.from("just some text with \x86 in it"))).toEqual([]);
    // A CodecID element whose size runs past the sniffed bytes is skipped, not read out of bounds.
    expect(webmCodecIds(Uint8Array.from([0x86, 0x88, 0x56, 0x5f, 0x56]))).toEqual([]);
    expect(webmCodecIds(Uint8Array.from([0x00, 0x86, 0x85, ...Buffer.from("V_VP8"), 0x00]))).toEqual(["V_VP8"]);
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

  it("reads allow-list entries trimmed, lower-cased and without a leading dot", () => {
    expect(isTypeAllowed([" .JPG "], jpeg)).toBe(true);
    expect(isTypeAllowed(["IMAGE/JPEG"], jpeg)).toBe(true);
    expect(isTypeAllowed(["*/*"], webm)).toBe(true);
  });

  it("admits nothing from an empty list, and a MIME family only for its own types", () => {
    expect(isTypeAllowed([], jpeg)).toBe(false);
    expect(isTypeAllowed(["video/*"], weba)).toBe(false);
    expect(isTypeAllowed(["image/*"], { ext: "txt", mime: "text/plain" })).toBe(false);
  });

  it("treats tif and tiff, outside the catalogue, as one format", () => {
    expect(isTypeAllowed(["tif"], { ext: "tiff", mime: "image/tiff" })).toBe(true);
    expect(isTypeAllowed(["tiff"], { ext: "tif", mime: "image/tiff" })).toBe(true);
  });
});
