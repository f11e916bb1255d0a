import { describe, expect, it } from "vitest";
import { mediaKind } from "~/lib/media-kind";

describe("mediaKind", () => {
  it("picks the preview from the MIME family, whatever the case or parameters", () => {
    expect(mediaKind("image/webp")).toBe("image");
    expect(mediaKind("VIDEO/MP4; codecs=avc1")).toBe("video");
    expect(mediaKind(" audio/ogg")).toBe("audio");
    expect(mediaKind("application/pdf")).toBe("document");
    expect(mediaKind("")).toBe("document");
    expect(mediaKind("imagex/png")).toBe("document");
  });
});
