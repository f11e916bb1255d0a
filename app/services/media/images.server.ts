import sharp, { type FitEnum, type Metadata, type Sharp, type SharpOptions } from "sharp";
import { corruptImage, STRICT_DECODE } from "~/services/media/image-integrity.server";
import { withImageSlot } from "~/services/media/image-slots.server";
import { DomainError } from "~/services/platform/domain-error.server";

/** The codes an image the pipeline cannot or will not decode is refused with. */
export const MEDIA_REFUSALS = ["invalid_image", "not_an_image", "image_too_large", "too_many_frames", "image_corrupt", "file_missing"] as const;

export interface ImageLimits {
  maxPixels: number;
  maxFrames: number;
}

/** Decoded 8-bit RGB pixels, row after row: a video frame as ffmpeg hands it over. */
export interface RawFrame {
  pixels: Buffer;
  width: number;
  height: number;
}

/** A stored image: its file path (disk store) or its bytes (S3). */
export type ImageSource = string | Buffer;

function openImage(source: ImageSource | RawFrame, options: SharpOptions): Sharp {
  if (typeof source === "string" || Buffer.isBuffer(source)) return sharp(source, options);
  return sharp(source.pixels, { ...options, raw: { width: source.width, height: source.height, channels: 3 } });
}

export interface ImageInfo {
  format: string;
  width: number;
  height: number;
  frames: number;
  /** An animation's running time (the sum of its frame delays); null for a still. */
  durationMs: number | null;
  /** EXIF, XMP or IPTC present, or an orientation that must be applied before stripping. */
  hasMetadata: boolean;
  /** Which of exif, xmp, iptc the file carries (what stripping removes). */
  metadataKinds: string[];
}

export type OutputFormat = "webp" | "avif" | "jpeg" | "png";
export type Fit = "cover" | "contain" | "inside";

export interface EncodeOptions {
  width?: number;
  height?: number;
  fit?: Fit;
  format: OutputFormat;
  quality: number;
  /**
   * WebP only: libwebp's iterative "sharp YUV" chroma subsampling, which keeps saturated edges
   * (coloured HUD text) crisp. For images that stand in for an original (stored conversions, video
   * posters). Resized derivatives go without: it is about a third of the CPU of a 1080p → 640 px
   * transform, for a difference that does not show at display size (decision record 034).
   */
  smartSubsample?: boolean;
  /** WebP only: libwebp's effort (0–6, 4 by default); lower is faster at about the same size. */
  effort?: number;
}

export interface EncodedImage {
  data: Buffer;
  width: number;
  height: number;
  mimeType: string;
}

export const MIME_BY_FORMAT: Record<OutputFormat, string> = {
  webp: "image/webp",
  avif: "image/avif",
  jpeg: "image/jpeg",
  png: "image/png",
};

/** Raster types we decode. SVG is absent on purpose: untrusted SVG is never rasterised. */
const RASTER_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif", "image/tiff", "image/bmp"]);

export function isRasterImage(mimeType: string): boolean {
  return RASTER_TYPES.has(mimeType.toLowerCase());
}

const megapixels = (pixels: number) => Math.round(pixels / 100_000) / 10;

/**
 * Reads the header only (no pixel decode), so a decompression bomb is refused in milliseconds
 * and without allocating its pixels. `mimeType`, what the bytes were detected as, names the format
 * when the header cannot be read (a truncated GIF or WebP, a PNG with garbage after its signature).
 */
export async function inspectImage(source: ImageSource, limits: ImageLimits, mimeType?: string): Promise<ImageInfo> {
  let meta: Metadata;
  try {
    meta = await openImage(source, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw corruptImage(mimeType, error);
  }
  if (meta.format === "svg") {
    throw new DomainError("invalid_image", "SVG images are stored as files and never rendered");
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!width || !height) throw corruptImage(mimeType, new Error("no picture size in its header"));
  const pixels = width * height;
  if (pixels > limits.maxPixels) {
    throw new DomainError("image_too_large",
      `Image of ${width}×${height} pixels (${megapixels(pixels)} MP) exceeds the limit of ${megapixels(limits.maxPixels)} MP`,
      { width, height, max_pixels: limits.maxPixels },
    );
  }
  const frames = meta.pages ?? 1;
  if (frames > limits.maxFrames) {
    throw new DomainError("too_many_frames", `Animated image has ${frames} frames; the limit is ${limits.maxFrames}`, {
      frames,
      max_frames: limits.maxFrames,
    });
  }
  const orientation = meta.orientation ?? 1;
  return {
    format: meta.format ?? "unknown",
    // Displayed size: EXIF orientations 5–8 swap the axes.
    width: orientation >= 5 ? height : width,
    height: orientation >= 5 ? width : height,
    frames,
    durationMs: frames > 1 && Array.isArray(meta.delay) ? meta.delay.reduce((sum, d) => sum + (d || 100), 0) : null,
    hasMetadata: Boolean(meta.exif || meta.xmp || meta.iptc) || orientation !== 1,
    metadataKinds: (["exif", "xmp", "iptc"] as const).filter((kind) => meta[kind]),
  };
}

function encoder(pipeline: Sharp, { format, quality, smartSubsample = false, effort = 4 }: EncodeOptions): Sharp {
  switch (format) {
    case "webp":
      return pipeline.webp({ quality, effort, smartSubsample });
    case "avif":
      return pipeline.avif({ quality, effort: 2 });
    case "jpeg":
      return pipeline.jpeg({ quality, mozjpeg: false, progressive: true });
    case "png":
      return pipeline.png({ compressionLevel: 6, adaptiveFiltering: true });
  }
}

/** An upload being read: any decoder warning refuses it, and the refusal names the type its bytes were detected as. */
export interface UploadDecode {
  mimeType: string;
}

function decodeFailure(error: unknown, upload?: UploadDecode): DomainError {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) {
    return new DomainError("image_too_large", "Image exceeds the pixel limit");
  }
  return corruptImage(upload?.mimeType, error);
}

/**
 * Decodes the first frame, applies the EXIF orientation, resizes and encodes. Output carries
 * no metadata at all (sharp writes none unless asked), so derivatives never leak EXIF or GPS.
 * An upload (`upload` given) is decoded strictly; stored files and video frames as before.
 */
export function encodeImage(source: ImageSource | RawFrame, options: EncodeOptions, limits: ImageLimits, upload?: UploadDecode): Promise<EncodedImage> {
  return withImageSlot(async () => {
    try {
      const failOn = upload ? STRICT_DECODE.failOn : "error";
      let pipeline = openImage(source, { limitInputPixels: limits.maxPixels, failOn, pages: 1 }).autoOrient();
      if (options.width || options.height) {
        pipeline = pipeline.resize({
          width: options.width,
          height: options.height,
          fit: (options.fit ?? "inside") as keyof FitEnum,
          withoutEnlargement: true,
          background: { r: 0, g: 0, b: 0, alpha: 0 },
        });
      }
      const { data, info } = await encoder(pipeline, options).toBuffer({ resolveWithObject: true });
      return { data, width: info.width, height: info.height, mimeType: MIME_BY_FORMAT[options.format] };
    } catch (error) {
      throw decodeFailure(error, upload);
    }
  });
}

/**
 * The original re-encoded in its own format without metadata (orientation applied first).
 * PNG stays lossless; JPEG and WebP are re-encoded at a high quality.
 */
export function stripImageMetadata(source: ImageSource, format: string, limits: ImageLimits, upload?: UploadDecode): Promise<EncodedImage | null> {
  const targets: Record<string, { format: OutputFormat; quality: number }> = {
    jpeg: { format: "jpeg", quality: 92 },
    png: { format: "png", quality: 100 },
    webp: { format: "webp", quality: 90 },
    avif: { format: "avif", quality: 70 },
  };
  const target = targets[format];
  if (!target) return Promise.resolve(null);
  return encodeImage(source, { format: target.format, quality: target.quality, smartSubsample: true }, limits, upload);
}
