import sharp from "sharp";
import { findCodedDataProblem } from "~/services/media/jpeg-coded-data.server";
import { DomainError } from "~/services/platform/domain-error.server";

const FORMAT_NAMES: Record<string, string> = {
  "image/jpeg": "JPEG",
  "image/png": "PNG",
  "image/webp": "WebP",
  "image/gif": "GIF",
  "image/avif": "AVIF",
  "image/tiff": "TIFF",
  "image/bmp": "BMP",
};

/** The decoder's own words, without libvips' prefixes: "Corrupt JPEG data: premature end of data segment". */
function decoderProblem(error: unknown): string {
  const first = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
  // "Input buffer has corrupt header: gifload_buffer: Unexpected end of GIF source data" → the last part.
  return first.replace(/^Input (buffer|file) (has|contains) [a-z ]+:\s*/i, "").replace(/^(?:[A-Za-z_]+:\s*)+/, "").trim() || "unreadable";
}

/**
 * image_corrupt (422), naming the format and the problem, e.g. "The JPEG image is truncated or corrupt
 * (Corrupt JPEG data: premature end of data segment)". `mimeType` is what the bytes were detected as.
 */
export function corruptImage(mimeType: string | undefined, error: unknown): DomainError {
  const format = (mimeType && FORMAT_NAMES[mimeType.toLowerCase()]) || "";
  const problem = decoderProblem(error);
  return new DomainError("image_corrupt", `The ${format ? `${format} ` : ""}image is truncated or corrupt (${problem})`, {
    ...(format ? { format: format.toLowerCase() } : {}),
    problem,
  });
}

/** Sharp options for decoding an upload: any decoder warning (libjpeg's "Corrupt JPEG data", libpng's CRC errors) fails. */
export const STRICT_DECODE = { failOn: "warning" } as const;

/**
 * A JPEG is refused unless all of its coded data decodes without a warning — a truncated file, or noise
 * that runs short ("Corrupt JPEG data: premature end of data segment") — and, for a sequential JPEG, its
 * coded data holds exactly the picture's blocks, each of valid codes within 64 coefficients (noise can
 * decode without a single warning: jpeg-coded-data.server.ts). Decoded at half scale: libjpeg still reads
 * every coded bit there (at 1/4 and below it may not), for a quarter of the memory. `largestSide` is the
 * picture's larger dimension.
 */
export async function assertJpegDecodesWhole(jpeg: Buffer, largestSide: number): Promise<void> {
  const problem = findCodedDataProblem(jpeg);
  if (problem) throw corruptImage("image/jpeg", new Error(problem));
  const side = Math.max(1, Math.ceil(largestSide / 2));
  try {
    await sharp(jpeg, { ...STRICT_DECODE, limitInputPixels: false }).resize(side, side, { fit: "inside", kernel: "nearest" }).raw().toBuffer();
  } catch (error) {
    throw corruptImage("image/jpeg", error);
  }
}

/** libvips decodes a GIF cut inside a frame without a word (the missing pixels left blank); its blocks tell. */
export function assertGifWhole(gif: Buffer): void {
  const problem = findGifStructureProblem(gif);
  if (problem) throw corruptImage("image/gif", new Error(problem));
}

/** Where a GIF's data ends before its blocks do, or null when every block is whole (a missing trailer byte is forgiven). */
export function findGifStructureProblem(gif: Buffer): string | null {
  if (gif.length < 13) return "the header is cut short";
  const colourTable = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  let i = 13 + colourTable(gif[10]!);
  // Sub-blocks: a length byte and that many bytes, until a zero length.
  const skipSubBlocks = () => {
    while (i < gif.length && gif[i] !== 0) i += gif[i]! + 1;
    if (i >= gif.length) return false;
    i++;
    return true;
  };
  for (let frame = 1; ; ) {
    if (i >= gif.length) return frame > 1 ? null : "the data ends before its first image";
    const block = gif[i]!;
    if (block === 0x3b) return null;
    if (block === 0x21) {
      i += 2;
      if (!skipSubBlocks()) return "the data ends inside an extension block";
    } else if (block === 0x2c) {
      if (i + 10 > gif.length) return `the data ends inside frame ${frame}`;
      i += 10 + colourTable(gif[i + 9]!) + 1;
      if (!skipSubBlocks()) return `the data ends inside frame ${frame}`;
      frame++;
    } else {
      return `an unknown block (0x${block.toString(16)}) after frame ${frame - 1}`;
    }
  }
}

/**
 * Decodes every frame of an animation (the thumbnail reads only the first), so a GIF or WebP whose later
 * frames are cut or damaged is refused too. Frames and pixels per frame are already within the limits.
 */
export async function assertEveryFrameDecodes(source: string | Buffer, mimeType: string): Promise<void> {
  try {
    await sharp(source, { ...STRICT_DECODE, pages: -1, limitInputPixels: false }).resize({ width: 16, height: 16, fit: "inside" }).raw().toBuffer();
  } catch (error) {
    throw corruptImage(mimeType, error);
  }
}
