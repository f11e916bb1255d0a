import { Readable } from "node:stream";
import { LRUCache } from "lru-cache";
import type { Db } from "../../../db/index.ts";
import type { Selectable } from "kysely";
import type { FileVariantsTable } from "../../../db/schema.ts";
import type { BlobStore } from "../../../storage/blob-store.ts";
import { encodeImage, MediaError, type Fit, type ImageLimits, type ImageSource, type OutputFormat } from "./images.server.ts";
import { readSource } from "./source.server.ts";

export interface TransformSpec {
  width?: number;
  height?: number;
  fit: Fit;
  format: OutputFormat;
  quality: number;
}

export type TransformParse =
  | { kind: "none" }
  | { kind: "transform"; spec: TransformSpec; varyAccept: boolean }
  | { kind: "invalid"; message: string };

const TRANSFORM_PARAMS = ["w", "h", "fit", "format", "q"] as const;
const FITS: readonly Fit[] = ["cover", "contain", "inside"];
const FORMATS: readonly OutputFormat[] = ["webp", "avif", "jpeg", "png"];
export const DEFAULT_QUALITY = 80;
export const MAX_DIMENSION = 4096;

/** The 320 px WebP made for every image at upload; `?w=320&format=webp` is served from it. */
export const THUMBNAIL_SPEC: TransformSpec = { width: 320, fit: "inside", format: "webp", quality: DEFAULT_QUALITY };

function intParam(value: string, min: number, max: number): number | undefined {
  if (!/^\d{1,5}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
}

function sameFormat(mimeType: string): OutputFormat {
  const sub = mimeType.split("/")[1]?.toLowerCase();
  return FORMATS.includes(sub as OutputFormat) ? (sub as OutputFormat) : "webp";
}

function formatFromAccept(accept: string | undefined, original: OutputFormat): OutputFormat {
  const value = (accept ?? "").toLowerCase();
  if (value.includes("image/avif")) return "avif";
  if (value.includes("image/webp")) return "webp";
  return original === "png" ? "png" : "jpeg";
}

/**
 * Reads w, h, fit, format and q from a query string. No transform parameter at all means the
 * original; any present one must be valid, or the whole request is refused with a reason.
 */
export function parseTransform(query: URLSearchParams, accept: string | undefined, mimeType: string): TransformParse {
  if (!TRANSFORM_PARAMS.some((name) => query.has(name))) return { kind: "none" };
  const spec: TransformSpec = { fit: "inside", format: sameFormat(mimeType), quality: DEFAULT_QUALITY };
  let varyAccept = false;
  const w = query.get("w");
  if (w !== null) {
    spec.width = intParam(w, 1, MAX_DIMENSION);
    if (spec.width === undefined) return { kind: "invalid", message: `w must be a whole number from 1 to ${MAX_DIMENSION}` };
  }
  const h = query.get("h");
  if (h !== null) {
    spec.height = intParam(h, 1, MAX_DIMENSION);
    if (spec.height === undefined) return { kind: "invalid", message: `h must be a whole number from 1 to ${MAX_DIMENSION}` };
  }
  const fit = query.get("fit");
  if (fit !== null) {
    if (!FITS.includes(fit as Fit)) return { kind: "invalid", message: "fit must be one of cover, contain, inside" };
    spec.fit = fit as Fit;
  }
  const format = query.get("format");
  if (format !== null) {
    if (format === "auto") {
      spec.format = formatFromAccept(accept, spec.format);
      varyAccept = true;
    } else if (FORMATS.includes(format as OutputFormat)) {
      spec.format = format as OutputFormat;
    } else {
      return { kind: "invalid", message: "format must be one of webp, avif, jpeg, png, auto" };
    }
  }
  const q = query.get("q");
  if (q !== null) {
    const quality = intParam(q, 20, 100);
    if (quality === undefined) return { kind: "invalid", message: "q must be a whole number from 20 to 100" };
    spec.quality = quality;
  }
  return { kind: "transform", spec, varyAccept };
}

/** A stable name per distinct output, the variant's key in file_variants and in the blob store. */
export function variantName(spec: TransformSpec, source: "image" | "poster" = "image"): string {
  const base = `w${spec.width ?? 0}_h${spec.height ?? 0}_${spec.fit}_q${spec.quality}.${spec.format}`;
  return source === "poster" ? `poster-${base}` : base;
}

/** Variants live beside their file, so a file's derivatives share its prefix in the store. */
export function variantStorageKey(fileStorageKey: string, variant: string): string {
  return `${fileStorageKey}.variants/${variant}`;
}

export type StoredVariant = Pick<Selectable<FileVariantsTable>, "variant" | "storage_key" | "mime_type" | "size_bytes" | "width" | "height" | "created_at">;

/** A variant as getOrCreateVariant gives it: with its bytes when this call just made it. */
export type ServedVariant = StoredVariant & { data?: Buffer };

export interface VariantSourceFile {
  id: string;
  storage_key: string;
  mime_type: string;
}

const VARIANT_CACHE_TTL_MS = 60_000;
const variantCaches = new WeakMap<Db, LRUCache<string, StoredVariant>>();
const inFlight = new Map<string, Promise<ServedVariant>>();

function variantCache(db: Db) {
  let cache = variantCaches.get(db);
  if (!cache) {
    cache = new LRUCache({ max: 20_000, ttl: VARIANT_CACHE_TTL_MS });
    variantCaches.set(db, cache);
  }
  return cache;
}

export async function findVariant(db: Db, fileId: string, variant: string): Promise<StoredVariant | undefined> {
  const cache = variantCache(db);
  const key = `${fileId}/${variant}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const row = await db
    .selectFrom("file_variants")
    .select(["variant", "storage_key", "mime_type", "size_bytes", "width", "height", "created_at"])
    .where("file_id", "=", fileId)
    .where("variant", "=", variant)
    .executeTakeFirst();
  if (row) cache.set(key, row);
  return row;
}

export interface VariantDeps {
  db: Db;
  blobs: BlobStore;
  limits: ImageLimits;
}

/**
 * The variant, made on first request. Concurrent first requests in this process share one
 * encode (single flight); across instances the (file_id, variant) key lets exactly one row win,
 * and both write identical bytes to the same deterministic blob key, so either outcome is right.
 * A variant made by this call comes with its bytes, so the first answer need not read them back.
 */
export async function getOrCreateVariant(
  deps: VariantDeps,
  file: VariantSourceFile,
  spec: TransformSpec,
  source: "image" | "poster" = "image",
): Promise<ServedVariant> {
  const name = variantName(spec, source);
  const existing = await findVariant(deps.db, file.id, name);
  if (existing) return existing;
  const flightKey = `${file.id}/${name}`;
  let flight = inFlight.get(flightKey);
  if (!flight) {
    flight = createVariant(deps, file, spec, name, source).finally(() => inFlight.delete(flightKey));
    inFlight.set(flightKey, flight);
  }
  return flight;
}

async function createVariant(
  deps: VariantDeps,
  file: VariantSourceFile,
  spec: TransformSpec,
  name: string,
  source: "image" | "poster",
): Promise<ServedVariant> {
  let input: ImageSource;
  if (source === "poster") {
    const poster = await findVariant(deps.db, file.id, POSTER_VARIANT);
    if (!poster) throw new MediaError(415, "not_an_image", "Transforms are only available for images and videos with a poster frame");
    input = await readSource(deps.blobs, poster.storage_key);
  } else {
    input = await readSource(deps.blobs, file.storage_key);
  }
  const encoded = await encodeImage(input, spec, deps.limits);
  return { ...(await storeVariant(deps, file, name, encoded)), data: encoded.data };
}

export const POSTER_VARIANT = "poster.webp";

export async function storeVariant(
  deps: Pick<VariantDeps, "db" | "blobs">,
  file: VariantSourceFile,
  name: string,
  encoded: { data: Buffer; mimeType: string; width: number; height: number },
): Promise<StoredVariant> {
  const storageKey = variantStorageKey(file.storage_key, name);
  const put = await deps.blobs.put(storageKey, Readable.from([encoded.data]), { contentType: encoded.mimeType });
  const row: StoredVariant = {
    variant: name,
    storage_key: storageKey,
    mime_type: encoded.mimeType,
    size_bytes: put.size,
    width: encoded.width,
    height: encoded.height,
    created_at: new Date(),
  };
  await deps.db
    .insertInto("file_variants")
    .values({ file_id: file.id, ...row })
    .onConflict((oc) => oc.columns(["file_id", "variant"]).doNothing())
    .execute();
  variantCache(deps.db).set(`${file.id}/${name}`, row);
  return row;
}

/** Removes every derivative's bytes of a file; call before deleting its row (rows cascade). */
export async function deleteVariantBlobs(db: Db, blobs: BlobStore, fileId: string): Promise<void> {
  const rows = await db.selectFrom("file_variants").select(["storage_key", "variant"]).where("file_id", "=", fileId).execute();
  const cache = variantCache(db);
  for (const row of rows) {
    await blobs.delete(row.storage_key);
    cache.delete(`${fileId}/${row.variant}`);
  }
}
