import type { Config } from "~/services/platform/env.server";
import type { ImageLimits } from "~/services/media/images.server";

export function imageLimits(config: Pick<Config, "MAX_IMAGE_PIXELS" | "MAX_IMAGE_FRAMES">): ImageLimits {
  return { maxPixels: config.MAX_IMAGE_PIXELS, maxFrames: config.MAX_IMAGE_FRAMES };
}
