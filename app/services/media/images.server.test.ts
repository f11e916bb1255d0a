import { describe, expect, it } from "vitest";
import { isRasterImage } from "~/services/media/images.server";

describe("isRasterImage", () => {
  it("decodes raster types only, never SVG", () => {
    expect(isRasterImage("image/JPEG")).toBe(true);
    expect(isRasterImage("image/bmp")).toBe(true);
    expect(isRasterImage("image/svg+xml")).toBe(false);
    expect(isRasterImage("image/heic")).toBe(false);
  });
});
