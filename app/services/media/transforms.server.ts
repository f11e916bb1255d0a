import { DomainError } from "~/services/platform/domain-error.server";
import { sql } from "kysely";
import { LRUCache } from "lru-cache";
import type { Db } from "../../../db/index";
import type { Selectable } from "kysely";
import type { FileVariantsTable } from "../../../db/schema";
import type { BlobStore } from "../../../storage/blob-store";
import { encodeImage, type Fit, type ImageLimits, type ImageSource, type OutputFormat } from "~/services/media/images.server";
import { readSource } from "~/services/media/source.server";
import type { FileId, ServerId } from "~/lib/ids";

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

const TRANSFORM_PARAMS = ["preset", "w", "h", "fit", "format", "q"] as const;

/** Named sizes anyone may ask for: `?preset=small` is a 640 px WebP unless `format` says otherwise. */
export const PRESETS = { thumb: 320, small: 640, medium: 1280, large: 1920 } as const;
export type PresetName = keyof typeof PRESETS;
/**
 * Requested sizes snap up to one of these and qualities to the nearest of the others, so a file has
 * a few hundred possible variants rather than millions (docs/decisions/065).
 */
export const SNAP_SIZES = [32, 64, 100, 120, 160, 200, 240, 300, 320, 400, 480, 500, 600, 640, 720, 800, 960, 1024, 1080, 1200, 1280, 1440, 1600, 1920, 2048, 2560, 3200, 3840, 4096];
export const SNAP_QUALITIES = [40, 50, 60, 70, 80, 90, 100];

export function snapSize(pixels: number): number {
  return SNAP_SIZES.find((size) => size >= pixels) ?? MAX_DIMENSION;
}

export function snapQuality(quality: number): number {
  return SNAP_QUALITIES.reduce((best, q) => (Math.abs(q - quality) <= Math.abs(best - quality) ? q : best));
}
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
 * Reads preset, w, h, fit, format and q from a query string, sizes and quality snapped. No transform
 * parameter at all means the original; any present one must be valid, or the whole request is
 * refused with a reason.
 */
export function parseTransform(query: URLSearchParams, accept: string | undefined, mimeType: string): TransformParse {
  if (!TRANSFORM_PARAMS.some((name) => query.has(name))) return { kind: "none" };
  const spec: TransformSpec = { fit: "inside", format: sameFormat(mimeType), quality: DEFAULT_QUALITY };
  let varyAccept = false;
  const preset = query.get("preset");
  if (preset !== null) {
    if (!Object.hasOwn(PRESETS, preset)) return { kind: "invalid", message: `preset must be one of ${Object.keys(PRESETS).join(", ")}` };
    if (query.has("w") || query.has("h")) return { kind: "invalid", message: "Use preset or w/h, not both" };
    spec.width = PRESETS[preset as PresetName];
    spec.format = "webp";
  }
  const w = query.get("w");
  if (w !== null) {
    const width = intParam(w, 1, MAX_DIMENSION);
    if (width === undefined) return { kind: "invalid", message: `w must be a whole number from 1 to ${MAX_DIMENSION}` };
    spec.width = snapSize(width);
  }
  const h = query.get("h");
  if (h !== null) {
    const height = intParam(h, 1, MAX_DIMENSION);
    if (height === undefined) return { kind: "invalid", message: `h must be a whole number from 1 to ${MAX_DIMENSION}` };
    spec.height = snapSize(height);
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
    spec.quality = snapQuality(quality);
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
  id: FileId;
  storage_key: string;
  mime_type: string;
}

const VARIANT_CACHE_TTL_MS = 60_000;
/** A served on-demand variant's last use is written at most this often (it orders eviction, no more). */
const TOUCH_EVERY_MS = 10 * 60_000;
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

export async function findVariant(db: Db, fileId: FileId, variant: string): Promise<StoredVariant | undefined> {
  const cache = variantCache(db);
  const key = `${fileId}/${variant}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const found = await db
    .selectFrom("file_variants")
    .select(["variant", "storage_key", "mime_type", "size_bytes", "width", "height", "created_at", "on_demand", "last_used_at"])
    .where("file_id", "=", fileId)
    .where("variant", "=", variant)
    .executeTakeFirst();
  if (!found) return undefined;
  const { on_demand, last_used_at, ...row } = found;
  if (on_demand && Date.now() - new Date(last_used_at).getTime() > TOUCH_EVERY_MS) {
    await db.updateTable("file_variants").set({ last_used_at: new Date() }).where("file_id", "=", fileId).where("variant", "=", variant).execute();
  }
  cache.set(key, row);
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
  onDemand?: OnDemandOptions,
): Promise<ServedVariant> {
  const name = variantName(spec, source);
  const existing = await findVariant(deps.db, file.id, name);
  if (existing) return existing;
  const flightKey = `${file.id}/${name}`;
  let flight = inFlight.get(flightKey);
  if (!flight) {
    // The admission check (a per-address encode budget) runs once per encode, not per waiting request.
    flight = (onDemand ? onDemand.beforeEncode() : Promise.resolve())
      .then(() => createVariant(deps, file, spec, name, source, onDemand))
      .finally(() => inFlight.delete(flightKey));
    inFlight.set(flightKey, flight);
  }
  return flight;
}

/** A variant a viewer asked for: counted in the owner's usage, at most `perFile` kept per file. */
export interface OnDemandOptions {
  perFile: number;
  /** Throws (429) when the caller may not start another encode. */
  beforeEncode(): Promise<void>;
}

async function createVariant(
  deps: VariantDeps,
  file: VariantSourceFile,
  spec: TransformSpec,
  name: string,
  source: "image" | "poster",
  onDemand?: OnDemandOptions,
): Promise<ServedVariant> {
  let input: ImageSource;
  if (source === "poster") {
    const poster = await findVariant(deps.db, file.id, POSTER_VARIANT);
    if (!poster) throw new DomainError("not_an_image", "Transforms are only available for images and videos with a poster frame");
    input = await readSource(deps.blobs, poster.storage_key);
  } else {
    input = await readSource(deps.blobs, file.storage_key);
  }
  const encoded = await encodeImage(input, spec, deps.limits);
  const stored = onDemand ? await storeOnDemandVariant(deps, file, name, encoded, onDemand.perFile) : await storeVariant(deps, file, name, encoded);
  return { ...stored, data: encoded.data };
}

export const POSTER_VARIANT = "poster.webp";
/** A video's 3 s animated WebP, made at upload for the gallery's hover preview. */
export const PREVIEW_VARIANT = "preview.webp";
/** An audio file's waveform picture, made at upload for its card. */
export const WAVEFORM_VARIANT = "waveform.png";
/** format=auto offers AVIF only for sources up to this size: past it the encode costs seconds of CPU. */
export const AVIF_MAX_SOURCE_PX = 1600;
/** A video's MP4 copy: counted in usage like on-demand variants, never evicted by them. */
export const MP4_COPY_VARIANT = "copy.mp4";

export async function storeVariant(
  deps: Pick<VariantDeps, "db" | "blobs">,
  file: VariantSourceFile,
  name: string,
  encoded: { data: Buffer; mimeType: string; width: number; height: number },
): Promise<StoredVariant> {
  const storageKey = variantStorageKey(file.storage_key, name);
  const put = await deps.blobs.put(storageKey, encoded.data, { contentType: encoded.mimeType });
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

/**
 * Stores a viewer's variant and, in one transaction, adds its bytes to the owner's usage and evicts
 * the file's least recently used on-demand variants beyond `perFile` (their bytes released, their
 * blobs queued for deletion and deleted after the commit). Never refused for quota: a viewer is not
 * the owner, and `perFile` bounds what a file can add.
 */
async function storeOnDemandVariant(
  deps: Pick<VariantDeps, "db" | "blobs">,
  file: VariantSourceFile,
  name: string,
  encoded: { data: Buffer; mimeType: string; width: number; height: number },
  perFile: number,
): Promise<StoredVariant> {
  const storageKey = variantStorageKey(file.storage_key, name);
  const put = await deps.blobs.put(storageKey, encoded.data, { contentType: encoded.mimeType });
  const row: StoredVariant = { variant: name, storage_key: storageKey, mime_type: encoded.mimeType, size_bytes: put.size, width: encoded.width, height: encoded.height, created_at: new Date() };
  const evicted = await deps.db.transaction().execute(async (trx) => {
    // One writer per file at a time: without the lock, two concurrent inserts each miss the other's row and keep perFile + 1.
    await trx.selectFrom("files").select("id").where("id", "=", file.id).forUpdate().execute();
    const inserted = await trx
      .insertInto("file_variants")
      .values({ file_id: file.id, ...row, on_demand: true })
      .onConflict((oc) => oc.columns(["file_id", "variant"]).doNothing())
      .returning("variant")
      .executeTakeFirst();
    if (!inserted) return [];
    const over = await trx
      .selectFrom("file_variants")
      .select("variant")
      .where("file_id", "=", file.id)
      .where("on_demand", "=", true)
      .where("variant", "<>", MP4_COPY_VARIANT)
      .orderBy("last_used_at", "desc")
      .orderBy("created_at", "desc")
      .limit(1000)
      .offset(perFile)
      .execute();
    // Only rows this transaction deleted are released: a concurrent insert may have evicted the same ones.
    const evictedRows = over.length
      ? await trx
          .deleteFrom("file_variants")
          .where("file_id", "=", file.id)
          .where("variant", "in", over.map((v) => v.variant))
          .returning(["variant", "storage_key", "size_bytes"])
          .execute()
      : [];
    if (evictedRows.length) {
      await trx.insertInto("blob_deletions").values(evictedRows.map((v) => ({ storage_key: v.storage_key }))).onConflict((oc) => oc.column("storage_key").doNothing()).execute();
    }
    const delta = put.size - evictedRows.reduce((sum, v) => sum + Number(v.size_bytes), 0);
    const owner = trx.selectFrom("files").where("id", "=", file.id);
    await trx
      .updateTable("account_usage")
      .set({ used_bytes: sql`greatest(used_bytes + ${delta}::bigint, 0)`, updated_at: new Date() })
      .where("team_id", "=", owner.select("team_id"))
      .execute();
    await trx
      .updateTable("servers")
      .set({ storage_used_bytes: sql`greatest(storage_used_bytes + ${delta}::bigint, 0)` })
      .where("id", "=", owner.select("server_id"))
      .execute();
    return evictedRows;
  });
  const cache = variantCache(deps.db);
  cache.set(`${file.id}/${name}`, row);
  for (const gone of evicted) {
    cache.delete(`${file.id}/${gone.variant}`);
    await deps.blobs.delete(gone.storage_key);
    await deps.db.deleteFrom("blob_deletions").where("storage_key", "=", gone.storage_key).execute();
  }
  return row;
}

/** Bytes of a file's (or a server's files') on-demand variants: what deleting them releases from usage. */
export async function onDemandVariantBytes(db: Db, scope: { fileId: FileId } | { serverId: ServerId }): Promise<number> {
  const row = await db
    .selectFrom("file_variants")
    .innerJoin("files", "files.id", "file_variants.file_id")
    .select(sql<string>`coalesce(sum(file_variants.size_bytes), 0)`.as("bytes"))
    .where("file_variants.on_demand", "=", true)
    .$if("fileId" in scope, (q) => q.where("files.id", "=", (scope as { fileId: FileId }).fileId))
    .$if("serverId" in scope, (q) => q.where("files.server_id", "=", (scope as { serverId: ServerId }).serverId))
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

