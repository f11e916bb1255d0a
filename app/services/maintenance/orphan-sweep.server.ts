import type { AppContext } from "~/services/app-context.server";
import { isUuid } from "~/services/platform/ids.server";
import type { ImportId } from "~/lib/ids";

/** Blobs younger than this may belong to an upload between its blob write and its row insert. */
export const ORPHAN_MIN_AGE_MS = 15 * 60_000;
const BATCH = 500;

/** The import an `imports/{id}/…` blob belongs to (its archive, its log entries), kept while the import is not over. */
function importOfKey(key: string): string | null {
  const [root, id] = key.split("/");
  return root === "imports" && id && isUuid(id) ? id : null;
}

/**
 * Deletes blobs that no file or variant row points at (nor an import still running: its uploaded archive): what a crash between storing bytes and
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
    const importIds = [...new Set(keys.map(importOfKey).filter((id): id is string => id !== null))];
    const [files, variants, imports] = await Promise.all([
      ctx.db.selectFrom("files").select("storage_key").where("storage_key", "in", keys).execute(),
      ctx.db.selectFrom("file_variants").select("storage_key").where("storage_key", "in", keys).execute(),
      importIds.length ? ctx.db.selectFrom("imports").select("id").where("id", "in", importIds as ImportId[]).where("state", "in", ["draft", "queued", "running"]).execute() : [],
    ]);
    const known = new Set([...files, ...variants].map((r) => r.storage_key));
    const activeImports = new Set(imports.map((r) => r.id as string));
    for (const key of keys) {
      if (known.has(key) || activeImports.has(importOfKey(key) ?? "")) continue;
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
