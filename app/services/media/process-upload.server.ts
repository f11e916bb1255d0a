import { randomBytes } from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { Db } from "../../../db/index.ts";
import type { BlobStore } from "../../../storage/blob-store.ts";
import type { Config } from "../env.server.ts";
import type { Logger } from "../logger.server.ts";
import { encodeImage, inspectImage, isRasterImage, MediaError, stripImageMetadata, type EncodedImage } from "./images.server.ts";
import { imageLimits } from "./limits.server.ts";
import { readSource } from "./source.server.ts";
import { POSTER_VARIANT, THUMBNAIL_SPEC, variantName, variantStorageKey } from "./transforms.server.ts";
import { extractPosterFrame, probeMedia } from "./video.server.ts";

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
}

/** An upload whose bytes are already in the blob store, before its row is written. */
export interface StoredUpload {
  storageKey: string;
  filename: string;
  mimeType: string;
  size: number;
  sha256: string;
}

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
}

/** PNG and JPEG screenshots are worth re-encoding; WebP keeps their look at a fraction of the bytes. */
const CONVERTIBLE = new Set(["image/png", "image/jpeg"]);
const WEBP_QUALITY = 88;

function withExtension(name: string, extension: string): string {
  return name.replace(/(\.[A-Za-z0-9]{1,8})?$/, `.${extension}`);
}

async function putBytes(blobs: BlobStore, key: string, data: Buffer, contentType: string) {
  return blobs.put(key, Readable.from([data]), { contentType });
}

/**
 * Runs between "bytes stored" and "row written" of an upload: refuses bombs and corrupt images
 * (MediaError: 400/413/415 for the API answer), applies the server's strip/convert settings to the
 * original, and stores the thumbnail (images) or poster and thumbnail (videos). On a MediaError
 * everything this function wrote is removed again; the caller removes the original upload.
 */
export async function processUploadedMedia(deps: MediaDeps, upload: StoredUpload, settings: MediaSettings): Promise<ProcessedUpload> {
  const mime = upload.mimeType.toLowerCase();
  if (isRasterImage(mime)) return processImage(deps, upload, settings);
  if (mime.startsWith("video/") || mime.startsWith("audio/")) return processAudioVideo(deps, upload);
  return { ...upload, width: null, height: null, durationMs: null, variants: [] };
}

async function processImage(deps: MediaDeps, upload: StoredUpload, settings: MediaSettings): Promise<ProcessedUpload> {
  const limits = imageLimits(deps.config);
  const written: string[] = [];
  try {
    const source = await readSource(deps.blobs, upload.storageKey);
    const info = await inspectImage(source, limits);
    let replacement: EncodedImage | null = null;
    if (settings.convertToWebp && CONVERTIBLE.has(upload.mimeType) && info.frames === 1) {
      const webp = await encodeImage(source, { format: "webp", quality: WEBP_QUALITY, smartSubsample: true }, limits);
      if (webp.data.length < upload.size) replacement = webp;
    }
    if (!replacement && settings.stripMetadata && info.hasMetadata && info.frames === 1) {
      replacement = await stripImageMetadata(source, info.format, limits);
    }
    // Decoding for the thumbnail is also what finds truncated or corrupt pixel data.
    const thumb = await encodeImage(replacement?.data ?? source, THUMBNAIL_SPEC, limits);

    let stored: StoredUpload = upload;
    if (replacement) {
      const extension = replacement.mimeType.split("/")[1];
      const sameType = replacement.mimeType === upload.mimeType;
      const storageKey = sameType ? upload.storageKey : withExtension(upload.storageKey, extension);
      const put = await putBytes(deps.blobs, storageKey, replacement.data, replacement.mimeType);
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
    return { ...stored, width: info.width, height: info.height, durationMs: null, variants: [thumbVariant] };
  } catch (error) {
    await Promise.all(written.map((key) => deps.blobs.delete(key).catch(() => undefined)));
    throw error;
  }
}

async function storeDerivative(blobs: BlobStore, fileKey: string, variant: string, image: EncodedImage): Promise<PendingVariant> {
  const storageKey = variantStorageKey(fileKey, variant);
  const put = await putBytes(blobs, storageKey, image.data, image.mimeType);
  return { variant, storage_key: storageKey, mime_type: image.mimeType, size_bytes: put.size, width: image.width, height: image.height };
}

/** ffmpeg needs a path; on S3 the bytes go to a private temp file for the duration of the probe. */
async function withLocalFile<T>(blobs: BlobStore, key: string, work: (file: string) => Promise<T>): Promise<T> {
  const source = await readSource(blobs, key);
  if (typeof source === "string") return work(source);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "stash-media-"));
  const file = path.join(dir, `input-${randomBytes(6).toString("hex")}`);
  try {
    await fsp.writeFile(file, source, { mode: 0o600 });
    return await work(file);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Duration and dimensions, and for videos a poster frame with its thumbnail. Everything here is
 * best effort: without ffmpeg, or for a file ffmpeg cannot read, the upload is stored as it is.
 */
async function processAudioVideo(deps: MediaDeps, upload: StoredUpload): Promise<ProcessedUpload> {
  const tools = { ffmpegPath: deps.config.FFMPEG_PATH, ffprobePath: deps.config.FFPROBE_PATH };
  const plain: ProcessedUpload = { ...upload, width: null, height: null, durationMs: null, variants: [] };
  const written: string[] = [];
  try {
    return await withLocalFile(deps.blobs, upload.storageKey, async (file) => {
      const probe = await probeMedia(tools, file, upload.mimeType);
      if (!probe) return plain;
      const result: ProcessedUpload = { ...plain, width: probe.width, height: probe.height, durationMs: probe.durationMs };
      const limits = imageLimits(deps.config);
      if (!probe.hasVideo || (probe.width ?? 0) * (probe.height ?? 0) > limits.maxPixels) return result;
      const frame = await extractPosterFrame(tools, file, upload.mimeType, probe.durationMs);
      if (!frame) return result;
      const poster = await encodeImage(frame, { format: "webp", quality: 82, smartSubsample: true }, limits);
      const posterVariant = await storeDerivative(deps.blobs, upload.storageKey, POSTER_VARIANT, poster);
      written.push(posterVariant.storage_key);
      const thumb = await encodeImage(poster.data, THUMBNAIL_SPEC, limits);
      const thumbVariant = await storeDerivative(deps.blobs, upload.storageKey, variantName(THUMBNAIL_SPEC, "poster"), thumb);
      written.push(thumbVariant.storage_key);
      result.variants = [posterVariant, thumbVariant];
      return result;
    });
  } catch (error) {
    await Promise.all(written.map((key) => deps.blobs.delete(key).catch(() => undefined)));
    deps.logger.warn({ err: error, storageKey: upload.storageKey, mimeType: upload.mimeType }, "could not read media details; stored as is");
    return plain;
  }
}

/** Inserts the derivative rows of a just-written file (in the upload's transaction, if any). */
export async function recordVariants(db: Db, fileId: string, variants: PendingVariant[]): Promise<void> {
  if (variants.length === 0) return;
  await db
    .insertInto("file_variants")
    .values(variants.map((v) => ({ file_id: fileId, ...v })))
    .onConflict((oc) => oc.columns(["file_id", "variant"]).doNothing())
    .execute();
}

/** Removes what processUploadedMedia stored, when the upload fails after it (quota, database). */
export async function discardProcessedMedia(blobs: BlobStore, processed: ProcessedUpload): Promise<void> {
  await Promise.all([processed.storageKey, ...processed.variants.map((v) => v.storage_key)].map((key) => blobs.delete(key).catch(() => undefined)));
}

export { MediaError };
