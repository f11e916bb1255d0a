import type { Config } from "../env.server.ts";
import type { ImageLimits } from "./images.server.ts";

export function imageLimits(config: Pick<Config, "MAX_IMAGE_PIXELS" | "MAX_IMAGE_FRAMES">): ImageLimits {
  return { maxPixels: config.MAX_IMAGE_PIXELS, maxFrames: config.MAX_IMAGE_FRAMES };
}
