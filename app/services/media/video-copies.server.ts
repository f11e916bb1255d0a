import fsp from "node:fs/promises";
import path from "node:path";
import { createReadStream } from "node:fs";
import { sql } from "kysely";
import { isDatabaseUnavailable } from "../../../db/connection-errors";
import type { Db } from "../../../db/index";
import type { BlobStore } from "../../../storage/blob-store";
import type { Config } from "~/services/platform/env.server";
import type { Logger } from "~/services/platform/logger.server";
import { withLocalFile, withTempDir } from "~/services/media/source.server";
import { mediaTools } from "~/services/media/tools.server";
import { findVariant, MP4_COPY_VARIANT, PREVIEW_VARIANT, variantStorageKey } from "~/services/media/transforms.server";
import { EncodeError, encodeMp4Copy, makeAnimatedPreview, MP4_COPY_MAX_GROWTH, mp4CopyRates, probeMedia, toolAvailable, wantsMp4Copy, type MediaTools, type Mp4CopySource } from "~/services/media/video.server";
import type { FileId } from "~/lib/ids";

export interface VideoCopyDeps {
  db: Db;
  blobs: BlobStore;
  config: Pick<Config, "FFMPEG_PATH" | "FFPROBE_PATH">;
  logger: Logger;
}

/**
 * Queues a video for its MP4 copy (a free plan's first `?format=mp4` request); nothing happens for a
 * file that has one, is queued, failed before, or does not need one.
 */
export async function requestVideoCopy(db: Db, file: { id: FileId; mime_type: string; duration_ms: number | null }): Promise<void> {
  if (!wantsMp4Copy(file.mime_type, file.duration_ms)) return;
  await db
    .updateTable("files")
    .set({ mp4_wanted_at: new Date() })
    .where("id", "=", file.id)
    .where("mp4_wanted_at", "is", null)
    .where("mp4_failed_at", "is", null)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("file_variants").select("variant").where("file_id", "=", file.id).where("variant", "=", MP4_COPY_VARIANT))))
    .execute();
}

type Outcome = "made" | "failed" | "idle";

/** Stops retries of a file and says why, for the log and the file's page. */
async function markFailed(deps: VideoCopyDeps, id: FileId, failure: string, detail: Record<string, unknown> = {}) {
  deps.logger.warn({ fileId: id, failure, ...detail }, "MP4 copy not made");
  await deps.db.updateTable("files").set({ mp4_wanted_at: null, mp4_failed_at: new Date(), mp4_failure: failure }).where("id", "=", id).execute();
}

/** Tries at a lower rate when a copy still comes out past the cap: x264 overshoots most on clips of a few seconds. */
const MP4_COPY_TRIES = 3;

const ratio = (size: number, original: number) => `${(size / original).toFixed(2)}×`;

/**
 * Encodes a copy within MP4_COPY_MAX_GROWTH of the original: at the rate mp4CopyRates aims at, then, while
 * it comes out past the cap, again with the budget scaled down by how far it overshot (to 90 % of the cap).
 * The size of the copy kept, or why none could be made.
 */
async function encodeWithinCap(tools: MediaTools, input: string, output: string, source: Mp4CopySource): Promise<{ size: number } | { failure: string; tries: string[] }> {
  const cap = source.sizeBytes * MP4_COPY_MAX_GROWTH;
  const tries: string[] = [];
  let scale = 1;
  let last = "";
  for (let attempt = 1; attempt <= MP4_COPY_TRIES; attempt++) {
    const rates = mp4CopyRates(source, scale);
    // At the lowest rates there is nothing lower to try.
    if (`${rates.videoKbps}/${rates.audioKbps}` === last) break;
    last = `${rates.videoKbps}/${rates.audioKbps}`;
    await encodeMp4Copy(tools, input, output, source, rates);
    const { size } = await fsp.stat(output);
    if (size <= cap) return { size };
    tries.push(`${ratio(size, source.sizeBytes)} at ${rates.videoKbps} kbit/s`);
    scale *= (cap * 0.9) / size;
  }
  const times = tries.length === 1 ? "once" : `${tries.length} times`;
  return { failure: `The MP4 copy came out past its size cap (${MP4_COPY_MAX_GROWTH}× the original) ${times}: ${tries.join(", ")}.`, tries };
}

/**
 * Makes the oldest queued copy: encodes to a temp file within the size cap (encodeWithinCap), stores
 * it as the `copy.mp4` variant and adds its bytes to the owner's usage in one transaction with the
 * file row locked, so a file deleted meanwhile keeps no copy (its blob is removed again). A copy that
 * cannot be made marks the file failed, with the reason, rather than retrying it forever.
 */
export async function makeNextVideoCopy(deps: VideoCopyDeps): Promise<Outcome> {
  const file = await deps.db
    .selectFrom("files")
    .select(["id", "storage_key", "mime_type", "size_bytes", "duration_ms"])
    .where("mp4_wanted_at", "is not", null)
    .where("mp4_failed_at", "is", null)
    .orderBy("mp4_wanted_at")
    .limit(1)
    .executeTakeFirst();
  if (!file) return "idle";
  if (await findVariant(deps.db, file.id, MP4_COPY_VARIANT)) {
    await deps.db.updateTable("files").set({ mp4_wanted_at: null }).where("id", "=", file.id).execute();
    return "made";
  }
  const tools = await mediaTools(deps.config);
  if (!(await toolAvailable(tools.ffmpegPath))) return "idle";
  const sizeBytes = Number(file.size_bytes);
  try {
    return await withLocalFile(deps.blobs, file.storage_key, (input) => withTempDir(async (dir) => {
      const durationMs = file.duration_ms ?? (await probeMedia(tools, input, file.mime_type))?.durationMs ?? null;
      if (!durationMs) {
        await markFailed(deps, file.id, "The video's duration could not be read, so no bitrate could be chosen for its MP4 copy.");
        return "failed";
      }
      const output = path.join(dir, "copy.mp4");
      const encoded = await encodeWithinCap(tools, input, output, { mimeType: file.mime_type, sizeBytes, durationMs });
      if ("failure" in encoded) {
        await markFailed(deps, file.id, encoded.failure, { original: sizeBytes, durationMs, tries: encoded.tries });
        return "failed";
      }
      const storageKey = variantStorageKey(file.storage_key, MP4_COPY_VARIANT);
      const put = await deps.blobs.put(storageKey, createReadStream(output), { contentType: "video/mp4" });
      const probe = await probeMedia(tools, output, "video/mp4");
      const kept = await deps.db.transaction().execute(async (trx) => {
        const owner = await trx.selectFrom("files").select(["team_id", "server_id"]).where("id", "=", file.id).forUpdate().executeTakeFirst();
        if (!owner) return false;
        await trx
          .insertInto("file_variants")
          .values({ file_id: file.id, variant: MP4_COPY_VARIANT, storage_key: storageKey, mime_type: "video/mp4", size_bytes: put.size, width: probe?.width ?? null, height: probe?.height ?? null, on_demand: true })
          .execute();
        await trx.updateTable("account_usage").set({ used_bytes: sql`used_bytes + ${put.size}::bigint`, updated_at: new Date() }).where("team_id", "=", owner.team_id).execute();
        await trx.updateTable("servers").set({ storage_used_bytes: sql`storage_used_bytes + ${put.size}::bigint` }).where("id", "=", owner.server_id).execute();
        await trx.updateTable("files").set({ mp4_wanted_at: null, mp4_failure: null }).where("id", "=", file.id).execute();
        return true;
      });
      if (!kept) await deps.blobs.delete(storageKey);
      return kept ? "made" : "idle";
    }));
  } catch (error) {
    // A database that is away is no reason to give up on the file: the next run tries it again.
    if (isDatabaseUnavailable(error)) throw error;
    const failure = error instanceof EncodeError ? `ffmpeg could not make the MP4 copy: ${error.problem}` : `The MP4 copy could not be made: ${error instanceof Error ? error.message : String(error)}`;
    await markFailed(deps, file.id, failure, { err: error });
    return "failed";
  }
}

/** Works through the queue one encode at a time (the job runs once across instances) until it is empty or the run is stopped. */
export async function makeVideoCopies(deps: VideoCopyDeps, signal?: AbortSignal): Promise<number> {
  let made = 0;
  while (!signal?.aborted) {
    const outcome = await makeNextVideoCopy(deps);
    if (outcome === "idle") break;
    if (outcome === "made") made++;
  }
  return made;
}

/**
 * A video's 3 s hover preview, made just after its upload answered (it would add ~0.2 s to every
 * video upload). Part of the file like its poster: not counted in usage. A file deleted meanwhile
 * keeps nothing; an instance that stops first leaves the video without one (hover shows the poster).
 */
export async function makeVideoPreview(deps: VideoCopyDeps, file: { id: FileId; storage_key: string; mime_type: string; width: number | null; height: number | null }): Promise<boolean> {
  const tools = await mediaTools(deps.config);
  const preview = await withLocalFile(deps.blobs, file.storage_key, (input) => makeAnimatedPreview(tools, input, file.mime_type));
  if (!preview) return false;
  const storageKey = variantStorageKey(file.storage_key, PREVIEW_VARIANT);
  const put = await deps.blobs.put(storageKey, preview, { contentType: "image/webp" });
  const height = file.width && file.height ? Math.round((320 * file.height) / file.width / 2) * 2 : null;
  try {
    await deps.db
      .insertInto("file_variants")
      .values({ file_id: file.id, variant: PREVIEW_VARIANT, storage_key: storageKey, mime_type: "image/webp", size_bytes: put.size, width: 320, height })
      .onConflict((oc) => oc.columns(["file_id", "variant"]).doNothing())
      .execute();
    return true;
  } catch (error) {
    // The file was deleted while its preview was made (the foreign key refuses the row).
    await deps.blobs.delete(storageKey);
    deps.logger.info({ err: error, fileId: file.id }, "preview of a file deleted meanwhile discarded");
    return false;
  }
}
