import sharp from "sharp";
import { rgbaToThumbHash } from "thumbhash";

/** ThumbHash works on images of at most 100×100 px. */
const MAX_SIDE = 100;

/**
 * A ThumbHash (about 25 bytes, base64) of an image already small (the 320 px thumbnail), for a
 * blurred placeholder the gallery and scripts draw before the thumbnail arrives. Null when the
 * bytes cannot be read: a placeholder is never worth failing an upload for.
 */
export async function computeThumbHash(image: Buffer): Promise<string | null> {
  try {
    const { data, info } = await sharp(image, { failOn: "none" })
      .resize(MAX_SIDE, MAX_SIDE, { fit: "inside", withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString("base64");
  } catch {
    return null;
  }
}
