import type { AppContext } from "~/services/app-context.server";

/** Blobs younger than this may belong to an upload between its blob write and its row insert. */
export const ORPHAN_MIN_AGE_MS = 15 * 60_000;
const BATCH = 500;

/**
 * Deletes blobs that no file or variant row points at: what a crash between storing bytes and
 * committing the row, or between deleting a row and its blob, leaves behind. Returns how many.
 */
export async function sweepOrphanBlobs(ctx: Pick<AppContext, "db" | "blobs" | "logger">, olderThanMs: number = ORPHAN_MIN_AGE_MS): Promise<number> {
  const cutoff = Date.now() - olderThanMs;
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const keys = batch;
    batch = [];
    const [files, variants] = await Promise.all([
      ctx.db.selectFrom("files").select("storage_key").where("storage_key", "in", keys).execute(),
      ctx.db.selectFrom("file_variants").select("storage_key").where("storage_key", "in", keys).execute(),
    ]);
    const known = new Set([...files, ...variants].map((r) => r.storage_key));
    for (const key of keys) {
      if (known.has(key)) continue;
      await ctx.blobs.delete(key);
      removed++;
    }
  };
  for await (const blob of ctx.blobs.list()) {
    if (blob.lastModified.getTime() > cutoff) continue;
    batch.push(blob.key);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  if (removed) ctx.logger.info({ removed }, "removed blobs without file rows");
  return removed;
}
