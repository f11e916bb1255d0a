import { describe, expect, it } from "vitest";
import { MAX_DIMENSION, parseTransform, PRESETS, snapQuality, snapSize, SNAP_SIZES, THUMBNAIL_SPEC, variantName, variantStorageKey } from "~/services/media/transforms.server";

const parse = (query: string, accept?: string, mime = "image/png") => parseTransform(new URLSearchParams(query), accept, mime);

describe("snapping", () => {
  it("rounds sizes up to the next step, and past the last one to the maximum", () => {
    expect(snapSize(1)).toBe(32);
    expect(snapSize(32)).toBe(32);
    expect(snapSize(33)).toBe(64);
    expect(snapSize(641)).toBe(720);
    expect(snapSize(4096)).toBe(4096);
    expect(snapSize(5000)).toBe(MAX_DIMENSION);
    expect([...SNAP_SIZES].sort((a, b) => a - b)).toEqual(SNAP_SIZES);
  });

  it("takes qualities to the nearest step, ties upward", () => {
    expect(snapQuality(20)).toBe(40);
    expect(snapQuality(44)).toBe(40);
    expect(snapQuality(45)).toBe(50);
    expect(snapQuality(77)).toBe(80);
    expect(snapQuality(100)).toBe(100);
  });
});

describe("parseTransform", () => {
  it("means the original when no transform parameter is present", () => {
    expect(parse("")).toEqual({ kind: "none" });
    expect(parse("download=1&expires=1&sig=x")).toEqual({ kind: "none" });
  });

  it("keeps the source's format and snaps sizes", () => {
    expect(parse("w=300&h=301")).toEqual({ kind: "transform", spec: { width: 300, height: 320, fit: "inside", format: "png", quality: 80 }, varyAccept: false });
    expect(parse("w=10", undefined, "image/jpeg")).toMatchObject({ spec: { format: "jpeg" } });
    expect(parse("w=10", undefined, "image/gif")).toMatchObject({ spec: { format: "webp" } });
    expect(parse("q=55", undefined, "video/mp4")).toMatchObject({ spec: { format: "webp", quality: 60 } });
  });

  it("makes presets WebP unless a format says otherwise", () => {
    expect(parse("preset=small")).toMatchObject({ kind: "transform", spec: { width: PRESETS.small, format: "webp" } });
    expect(parse("preset=thumb&format=jpeg")).toMatchObject({ spec: { width: 320, format: "jpeg" } });
  });

  it("picks AVIF, WebP, then PNG or JPEG for format=auto, and says the answer varies", () => {
    expect(parse("format=auto", "image/avif,image/webp,*/*")).toMatchObject({ spec: { format: "avif" }, varyAccept: true });
    expect(parse("format=auto", "image/webp,*/*")).toMatchObject({ spec: { format: "webp" }, varyAccept: true });
    expect(parse("format=auto", "*/*", "image/png")).toMatchObject({ spec: { format: "png" } });
    expect(parse("format=auto", undefined, "image/gif")).toMatchObject({ spec: { format: "jpeg" } });
    expect(parse("preset=thumb&format=auto", "IMAGE/WEBP")).toMatchObject({ spec: { format: "webp" } });
  });

  it("refuses a bad value of any parameter with a reason", () => {
    const cases: Array<[string, string]> = [
      ["w=0", "w must be a whole number from 1 to 4096"],
      ["w=4097", "w must be a whole number from 1 to 4096"],
      ["w=12.5", "w must be a whole number from 1 to 4096"],
      ["w=", "w must be a whole number from 1 to 4096"],
      ["w=999999999999", "w must be a whole number from 1 to 4096"],
      ["h=-1", "h must be a whole number from 1 to 4096"],
      ["fit=fill", "fit must be one of cover, contain, inside"],
      ["format=gif", "format must be one of webp, avif, jpeg, png, auto"],
      ["format=WEBP", "format must be one of webp, avif, jpeg, png, auto"],
      ["q=19", "q must be a whole number from 20 to 100"],
      ["q=101", "q must be a whole number from 20 to 100"],
      ["preset=huge", "preset must be one of thumb, small, medium, large"],
      ["preset=small&w=100", "Use preset or w/h, not both"],
      ["preset=small&h=100", "Use preset or w/h, not both"],
    ];
    for (const [query, message] of cases) expect(parse(query), query).toEqual({ kind: "invalid", message });
  });

  it("refuses preset names every object answers to", () => {
    for (const preset of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(parse(`preset=${preset}`), preset).toEqual({ kind: "invalid", message: "preset must be one of thumb, small, medium, large" });
    }
  });
});

describe("variant names", () => {
  it("name each distinct output once, posters apart", () => {
    expect(variantName(THUMBNAIL_SPEC)).toBe("w320_h0_inside_q80.webp");
    expect(variantName({ height: 100, fit: "cover", format: "avif", quality: 50 }, "poster")).toBe("poster-w0_h100_cover_q50.avif");
    const a = parse("w=301");
    const b = parse("w=320");
    expect(a.kind === "transform" && b.kind === "transform" && variantName(a.spec) === variantName(b.spec)).toBe(true);
  });

  it("keep variants beside their file in the store", () => {
    expect(variantStorageKey("srv/cat/abc.png", "w320_h0_inside_q80.webp")).toBe("srv/cat/abc.png.variants/w320_h0_inside_q80.webp");
  });
});
