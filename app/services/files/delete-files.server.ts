import { sql } from "kysely";
import type { FileRecord } from "../../../db/schema";
import type { AppContext } from "~/services/app-context.server";
import { invalidateCachedFile } from "~/services/files/lookup.server";
import { onDemandVariantBytes } from "~/services/media/transforms.server";
import { releaseQuota } from "~/services/billing/quota.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Deletes a file of a server: the row (variants cascade) and the quota it and its on-demand variants held, in one
 * transaction, then its blobs. Rows go first so nothing ever points at missing bytes; a blob
 * whose delete fails is left to the orphan sweep. Returns the deleted row, or undefined.
 */
export async function deleteServerFile(ctx: Pick<AppContext, "db" | "blobs" | "logger">, serverId: string, fileId: string): Promise<FileRecord | undefined> {
  if (!UUID.test(fileId)) return undefined;
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const variants = await trx.selectFrom("file_variants").select("storage_key").where("file_id", "=", fileId).execute();
    const variantBytes = await onDemandVariantBytes(trx, { fileId });
    const file = await trx.deleteFrom("files").where("id", "=", fileId).where("server_id", "=", serverId).returningAll().executeTakeFirst();
    if (!file) return undefined;
    const released = Number(file.size_bytes) + variantBytes;
    await releaseQuota(trx, file.user_id, released);
    await trx
      .updateTable("servers")
      .set({ storage_used_bytes: sql`greatest(storage_used_bytes - ${released}::bigint, 0)` })
      .where("id", "=", serverId)
      .execute();
    return { file, keys: [file.storage_key, ...variants.map((v) => v.storage_key)] };
  });
  if (!deleted) return undefined;
  invalidateCachedFile(ctx.db, deleted.file);
  await Promise.all(
    deleted.keys.map((key) => ctx.blobs.delete(key).catch((error) => ctx.logger.warn({ err: error, key }, "blob of a deleted file left for the orphan sweep"))),
  );
  return deleted.file;
}
