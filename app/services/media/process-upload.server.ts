import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Db } from "../../../db/index";
import type { BlobStore } from "../../../storage/blob-store";
import type { Config } from "~/services/platform/env.server";
import type { Logger } from "~/services/platform/logger.server";
import { encodeImage, inspectImage, isRasterImage, stripImageMetadata, type EncodedImage, type EncodeOptions, type ImageInfo, type ImageSource } from "~/services/media/images.server";
import { assertEveryFrameDecodes, assertGifWhole, assertJpegDecodesWhole } from "~/services/media/image-integrity.server";
import { withImageSlot } from "~/services/media/image-slots.server";
import { imageLimits } from "~/services/media/limits.server";
import { hasCrossReference, PDF_TAIL_BYTES, stripPdfMetadata } from "~/services/media/pdf-metadata.server";
import { readSource, readTail, withLocalFile, withTempDir } from "~/services/media/source.server";
import { POSTER_VARIANT, THUMBNAIL_SPEC, variantName, variantStorageKey, WAVEFORM_VARIANT } from "~/services/media/transforms.server";
import { mediaTools } from "~/services/media/tools.server";
import { computeThumbHash } from "~/services/media/thumbhash.server";
import { canRewrite, extractPosterFrame, makeWaveform, probeMedia, remuxMedia, remuxMuxerFor, type MediaTools, type ProbeResult } from "~/services/media/video.server";
import type { FileId } from "~/lib/ids";

export type MediaConfig = Pick<Config, "MAX_IMAGE_PIXELS" | "MAX_IMAGE_FRAMES" | "FFMPEG_PATH" | "FFPROBE_PATH">;

export interface MediaDeps {
  blobs: BlobStore;
  config: MediaConfig;
  logger: Logger;
}

/** The server settings that change what is stored (servers.strip_metadata, servers.convert_to_webp). */
export interface MediaSettings {
  stripMetadata: boolean;
  convertToWebp: boolean;
  /** The upload's size limit, which a rewritten original must stay within too. */
  maxBytes?: number;
}

/** An upload whose bytes are already in the blob store, before its row is written. */
export interface StoredUpload {
  storageKey: string;
  filename: string;
  mimeType: string;
  size: number;
  sha256: string;
}

/** The bytes just stored, when the upload was small enough to be read whole: processing reads them instead of the store. */
export type StoredBytes = Buffer | null;

export interface PendingVariant {
  variant: string;
  storage_key: string;
  mime_type: string;
  size_bytes: number;
  width: number;
  height: number;
}

export interface ProcessedUpload extends StoredUpload {
  width: number | null;
  height: number | null;
  durationMs: number | null;
  /** Derivatives already in the blob store; write their rows with recordVariants after the file row. */
  variants: PendingVariant[];
  /** What was removed from the stored bytes: exif, xmp, iptc; a video's tag names; a PDF's fields. */
  metadataStripped: string[];
  /** Set when personal metadata could not be removed (an encrypted PDF), for the upload answer. */
  metadataWarning?: string;
  /** A ThumbHash placeholder of an image or a video's poster (base64), or null. */
  thumbhash: string | null;
}

/** PNG and JPEG screenshots are worth re-encoding; WebP keeps their look at a fraction of the bytes. */
const CONVERTIBLE = new Set(["image/png", "image/jpeg"]);
/**
 * How PNG and JPEG screenshots become WebP on the request path: quality 88 at libwebp effort 2,
 * without sharp YUV. On 1080p game screenshots that is ~120 ms of CPU instead of ~360 ms (effort 4 +
 * sharp YUV), 4 % fewer bytes, mean SSIM 0.965 instead of 0.969 (decision record 077).
 */
export const UPLOAD_WEBP: EncodeOptions = { format: "webp", quality: 88, effort: 2, smartSubsample: false };

/**
 * A video's poster: quality 82 at effort 2. Video frames are 4:2:0, their colour already at half
 * resolution, so sharp YUV has nothing to keep (it cost ~250 ms of a 720p poster's ~300 ms).
 */
const POSTER_WEBP: EncodeOptions = { format: "webp", quality: 82, effort: 2, smartSubsample: false };

function withExtension(name: string, extension: string): string {
  return name.replace(/(\.[A-Za-z0-9]{1,8})?$/, `.${extension}`);
}

/**
 * Runs between "bytes stored" and "row written" of an upload: refuses bombs and corrupt images
 * (a DomainError with a media code), applies the server's strip/convert settings to the
 * original, and stores the thumbnail (images) or poster and thumbnail (videos). On such a refusal
 * everything this function wrote is removed again; the caller removes the original upload.
 */
export async function processUploadedMedia(deps: MediaDeps, upload: StoredUpload, settings: MediaSettings, bytes: StoredBytes = null): Promise<ProcessedUpload> {
  const mime = upload.mimeType.toLowerCase();
  if (isRasterImage(mime)) return processImage(deps, upload, settings, bytes);
  if (mime.startsWith("video/") || mime.startsWith("audio/")) return processAudioVideo(deps, upload, settings);
  if (mime === "application/pdf" && settings.stripMetadata) return processPdf(deps, upload, settings, bytes);
  return { ...upload, width: null, height: null, durationMs: null, variants: [], metadataStripped: [], thumbhash: null };
}

/** A PDF rewritten without its author, producer and XMP fields; one that cannot be is kept, with a warning. */
async function processPdf(deps: MediaDeps, upload: StoredUpload, settings: MediaSettings, bytes: StoredBytes): Promise<ProcessedUpload> {
  const kept: ProcessedUpload = { ...upload, width: null, height: null, durationMs: null, variants: [], metadataStripped: [], thumbhash: null };
  // The tail first: a file that cannot be rewritten is never read whole. Rewrites hold the whole
  // document in memory (pdf-lib), so they share the media slots: 20 large PDFs at once are not 20 copies.
  const tail = bytes ? bytes.subarray(Math.max(0, bytes.length - PDF_TAIL_BYTES)) : await readTail(deps.blobs, upload.storageKey, upload.size, PDF_TAIL_BYTES);
  const rewrite = hasCrossReference(tail)
    ? await withImageSlot(async () => {
        const source = bytes ?? (await readSource(deps.blobs, upload.storageKey));
        return stripPdfMetadata(typeof source === "string" ? await fsp.readFile(source) : source);
      })
    : ({ data: null, stripped: [], reason: "the PDF could not be read" } as const);
  if (!rewrite.data) {
    if (rewrite.reason === "nothing to strip") return kept;
    deps.logger.warn({ storageKey: upload.storageKey, reason: rewrite.reason }, "PDF metadata kept");
    return { ...kept, metadataWarning: `Its author and producer fields could not be removed (${rewrite.reason}); it is served as a download only.` };
  }
  if (settings.maxBytes !== undefined && rewrite.data.length > settings.maxBytes) return kept;
  const put = await deps.blobs.put(upload.storageKey, rewrite.data, { contentType: upload.mimeType });
  return { ...kept, size: put.size, sha256: put.sha256, metadataStripped: rewrite.stripped };
}

async function processImage(deps: MediaDeps, upload: StoredUpload, settings: MediaSettings, bytes: StoredBytes): Promise<ProcessedUpload> {
  const limits = imageLimits(deps.config);
  const written: string[] = [];
  try {
    const source = bytes ?? (await readSource(deps.blobs, upload.storageKey));
    const decode = { mimeType: upload.mimeType };
    const info = await inspectImage(source, limits, upload.mimeType);
    await assertPixelDataIsWhole(source, info, upload.mimeType);
    let replacement: EncodedImage | null = null;
    if (settings.convertToWebp && CONVERTIBLE.has(upload.mimeType) && info.frames === 1) {
      const webp = await encodeImage(source, UPLOAD_WEBP, limits, decode);
      if (webp.data.length < upload.size) replacement = webp;
    }
    if (!replacement && settings.stripMetadata && info.hasMetadata && info.frames === 1) {
      replacement = await stripImageMetadata(source, info.format, limits, decode);
    }
    // The original's first frame is decoded in full and strictly either here or by the re-encode above.
    const thumb = await encodeImage(replacement?.data ?? source, THUMBNAIL_SPEC, limits, replacement ? undefined : decode);
    const thumbhash = await computeThumbHash(thumb.data);

    let stored: StoredUpload = upload;
    if (replacement) {
      const extension = replacement.mimeType.split("/")[1];
      const sameType = replacement.mimeType === upload.mimeType;
      const storageKey = sameType ? upload.storageKey : withExtension(upload.storageKey, extension);
      const put = await deps.blobs.put(storageKey, replacement.data, { contentType: replacement.mimeType });
      if (!sameType) written.push(storageKey);
      stored = {
        storageKey,
        filename: sameType ? upload.filename : withExtension(upload.filename, extension),
        mimeType: replacement.mimeType,
        size: put.size,
        sha256: put.sha256,
      };
    }
    const thumbVariant = await storeDerivative(deps.blobs, stored.storageKey, variantName(THUMBNAIL_SPEC), thumb);
    written.push(thumbVariant.storage_key);
    if (stored.storageKey !== upload.storageKey) await deps.blobs.delete(upload.storageKey);
    // A re-encode (WebP or strip) carries none of the original's metadata.
    const metadataStripped = replacement ? info.metadataKinds : [];
    return { ...stored, width: info.width, height: info.height, durationMs: info.durationMs, variants: [thumbVariant], metadataStripped, thumbhash };
  } catch (error) {
    await Promise.all(written.map((key) => deps.blobs.delete(key).catch(() => undefined)));
    throw error;
  }
}

/**
 * Every coded byte checked, strictly: a JPEG's (a thumbnail's scaled decode can skip its last bits; noise
 * can decode without a warning), a GIF's blocks (libvips fills a cut frame in silently) and every frame
 * of an animation (the thumbnail reads the first). Refused as image_corrupt (422).
 */
async function assertPixelDataIsWhole(source: ImageSource, info: ImageInfo, mimeType: string): Promise<void> {
  if (mimeType === "image/jpeg" || mimeType === "image/gif") {
    const bytes = typeof source === "string" ? await fsp.readFile(source) : source;
    if (mimeType === "image/gif") assertGifWhole(bytes);
    else await withImageSlot(() => assertJpegDecodesWhole(bytes, Math.max(info.width, info.height)));
  }
  if (info.frames > 1) await withImageSlot(() => assertEveryFrameDecodes(source, mimeType));
}

async function storeDerivative(blobs: BlobStore, fileKey: string, variant: string, image: EncodedImage): Promise<PendingVariant> {
  const storageKey = variantStorageKey(fileKey, variant);
  const put = await blobs.put(storageKey, image.data, { contentType: image.mimeType });
  return { variant, storage_key: storageKey, mime_type: image.mimeType, size_bytes: put.size, width: image.width, height: image.height };
}

/**
 * Duration and dimensions, and for videos a poster frame with its thumbnail. A recording without a
 * duration (MediaRecorder WebM) is first remuxed so it plays with a length and seeks, and a file
 * carrying personal tags is rewritten without them when the server strips metadata. Everything
 * here is best effort: without ffmpeg, or for a file ffmpeg cannot read, the upload is stored as it is.
 */
async function processAudioVideo(deps: MediaDeps, upload: StoredUpload, settings: MediaSettings): Promise<ProcessedUpload> {
  const tools = await mediaTools(deps.config);
  // What is known so far; after a remux it names the remuxed bytes, which are then in the store.
  let details: ProcessedUpload = { ...upload, width: null, height: null, durationMs: null, variants: [], metadataStripped: [], thumbhash: null };
  const written: string[] = [];
  try {
    return await withLocalFile(deps.blobs, upload.storageKey, (original) =>
      withTempDir(async (dir) => {
        let probe = await probeMedia(tools, original, upload.mimeType);
        if (!probe) return details;
        const limits = imageLimits(deps.config);
        // The poster frame is read from the original while a remux runs: the remux copies the same
        // packets. The no-op catch keeps a failure from going unhandled before it is awaited below.
        const framePixels = (probe.width ?? 0) * (probe.height ?? 0);
        const posterFrame =
          probe.hasVideo && framePixels <= limits.maxPixels ? extractPosterFrame(tools, original, upload.mimeType, probe.durationMs, framePixels) : null;
        posterFrame?.catch(() => undefined);
        let file = original;
        let stored: StoredUpload = upload;
        const needsDuration = probe.durationMs === null && Boolean(remuxMuxerFor(upload.mimeType));
        const stripMetadata = settings.stripMetadata && probe.personalTags.length > 0 && canRewrite(upload.mimeType);
        let metadataStripped: string[] = [];
        if (needsDuration || stripMetadata) {
          const tags = probe.personalTags;
          const remuxed = await rewriteStreams(deps, tools, upload, original, probe, path.join(dir, "remuxed"), { maxBytes: settings.maxBytes, stripMetadata });
          if (remuxed) {
            ({ file, probe, stored } = remuxed);
            if (stripMetadata) metadataStripped = tags;
          }
        }
        details = { ...stored, width: probe.width, height: probe.height, durationMs: probe.durationMs, variants: [], metadataStripped, thumbhash: null };
        if (!probe.hasVideo && probe.streams.includes("audio")) {
          const waveform = await makeWaveform(tools, file, upload.mimeType);
          if (!waveform) return details;
          const variant = await storeDerivative(deps.blobs, upload.storageKey, WAVEFORM_VARIANT, { data: waveform, mimeType: "image/png", width: 640, height: 120 });
          written.push(variant.storage_key);
          return { ...details, variants: [variant] };
        }
        const frame = await posterFrame;
        if (!frame) return details;
        const [poster, thumb] = await Promise.all([encodeImage(frame, POSTER_WEBP, limits), encodeImage(frame, THUMBNAIL_SPEC, limits)]);
        const posterVariant = await storeDerivative(deps.blobs, upload.storageKey, POSTER_VARIANT, poster);
        written.push(posterVariant.storage_key);
        const thumbVariant = await storeDerivative(deps.blobs, upload.storageKey, variantName(THUMBNAIL_SPEC, "poster"), thumb);
        written.push(thumbVariant.storage_key);
        return { ...details, variants: [posterVariant, thumbVariant], thumbhash: await computeThumbHash(thumb.data) };
      }),
    );
  } catch (error) {
    await Promise.all(written.map((key) => deps.blobs.delete(key).catch(() => undefined)));
    deps.logger.warn({ err: error, storageKey: upload.storageKey, mimeType: upload.mimeType }, "could not read media details; stored as is");
    return details;
  }
}

/** A remux copies every packet; its container overhead differs from the recorder's by a few percent. */
const MIN_COPY_RATIO = 0.9;

/**
 * Rewrites the upload's streams into a fresh container (`-c copy`): a recording without a duration
 * gets one and an index; with `stripMetadata`, the tags that can tell who, where or when (an MP4's
 * GPS location, an MP3's artist) are left out, as they are from images. When the copy has a
 * duration, the same streams, nearly all of the original's bytes and fits the size limit, it is
 * stored in place of the original under the same key; its size and SHA-256 are then the ones
 * charged and recorded. Any failure keeps the original's bytes.
 */
async function rewriteStreams(
  deps: MediaDeps,
  tools: MediaTools,
  upload: StoredUpload,
  original: string,
  originalProbe: ProbeResult,
  output: string,
  options: { maxBytes: number | undefined; stripMetadata: boolean },
): Promise<{ file: string; probe: ProbeResult; stored: StoredUpload } | null> {
  // A copy is the original's size plus an index; far beyond that is not a copy.
  const limit = Math.min(options.maxBytes ?? Number.MAX_SAFE_INTEGER, upload.size * 2 + 1024 * 1024);
  try {
    // The image slots also bound how many ffmpeg copies run at once.
    if (!(await withImageSlot(() => remuxMedia(tools, original, output, upload.mimeType, limit, { stripMetadata: options.stripMetadata })))) return null;
    const { size } = await fsp.stat(output);
    const probe = await probeMedia(tools, output, upload.mimeType);
    const sameStreams = probe?.streams.join() === originalProbe.streams.join();
    // A copy much smaller than the original lost packets (ffmpeg stops at data it cannot parse).
    const complete = size >= upload.size * MIN_COPY_RATIO && size <= limit;
    const stripped = !options.stripMetadata || probe?.personalTags.length === 0;
    if (!probe || probe.durationMs === null || probe.durationMs <= 0 || !sameStreams || !complete || !stripped) {
      deps.logger.warn({ storageKey: upload.storageKey, size, durationMs: probe?.durationMs, streams: probe?.streams }, "remux gave no usable copy; original kept");
      return null;
    }
    const put = await deps.blobs.put(upload.storageKey, fs.createReadStream(output), { contentType: upload.mimeType });
    return { file: output, probe, stored: { ...upload, size: put.size, sha256: put.sha256 } };
  } catch (error) {
    deps.logger.warn({ err: error, storageKey: upload.storageKey }, "remux failed; original kept");
    return null;
  }
}

/** Inserts the derivative rows of a just-written file (in the upload's transaction, if any). */
export async function recordVariants(db: Db, fileId: FileId, variants: PendingVariant[]): Promise<void> {
  if (variants.length === 0) return;
  await db
    .insertInto("file_variants")
    .values(variants.map((v) => ({ file_id: fileId, ...v })))
    .onConflict((oc) => oc.columns(["file_id", "variant"]).doNothing())
    .execute();
}

