import { sql } from "kysely";
import { DomainError } from "~/services/platform/domain-error.server";
import type { Db } from "../../../db/index";
import type { FileRecord, Server } from "../../../db/schema";
import type { BlobStore } from "../../../storage/index";
import type { AppContext } from "~/services/app-context.server";
import { invalidateCachedFile } from "~/services/files/lookup.server";
import { onDemandVariantBytes } from "~/services/media/transforms.server";
import { releaseQuota } from "~/services/billing/quota.server";
import type { FileId, ServerId, TeamId } from "~/lib/ids";

/**
 * Deletes a file of a server: the row (variants cascade) and the quota it and its on-demand variants held, in one
 * transaction, then its blobs. Rows go first so nothing ever points at missing bytes; a blob
 * whose delete fails is left to the orphan sweep. Returns the deleted row, or undefined.
 */
export async function deleteServerFile(
  ctx: Pick<AppContext, "db" | "blobs" | "logger">,
  serverId: ServerId,
  fileId: FileId,
  options: { evenInOpenCase?: boolean } = {},
): Promise<FileRecord | undefined> {
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    // Ownership before any other refusal: another server's file reads as missing, whatever case
    // holds it (its case number is not this caller's to learn). The row lock keeps a concurrent
    // "add to case" (its foreign key) waiting until the delete is done.
    const owned = await trx.selectFrom("files").select("id").where("id", "=", fileId).where("server_id", "=", serverId).forUpdate().executeTakeFirst();
    if (!owned) return undefined;
    // Evidence stays while its case is open (an admin's takedown and the storage repair excepted).
    const held = options.evenInOpenCase
      ? undefined
      : await trx
          .selectFrom("case_files as cf")
          .innerJoin("cases as c", "c.id", "cf.case_id")
          .select("c.number")
          .where("cf.file_id", "=", fileId)
          .where("c.status", "=", "open")
          .forShare()
          .executeTakeFirst();
    if (held) throw new DomainError("file_in_open_case", `This file is evidence in open case ${held.number}; close the case before deleting it`, { case: held.number });
    const variants = await trx.selectFrom("file_variants").select("storage_key").where("file_id", "=", fileId).execute();
    const variantBytes = await onDemandVariantBytes(trx, { fileId });
    const file = await trx.deleteFrom("files").where("id", "=", fileId).where("server_id", "=", serverId).returningAll().executeTakeFirst();
    if (!file) return undefined;
    const released = Number(file.size_bytes) + variantBytes;
    await releaseQuota(trx, file.team_id, released);
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

export interface DeletedServer {
  server: Server;
  filesDeleted: number;
  bytesReleased: number;
  /** Blobs whose delete failed; their rows are gone, so they are orphans to sweep. */
  blobErrors: number;
}

/**
 * Deletes a server, its files' rows and blobs, and gives their bytes back to the owner's quota.
 * `ownerId` limits the delete to that owner's server (the portal); admins pass none.
 * The rows and the quota change commit together; blobs go after the commit, so a crash leaves
 * unreferenced blobs (harmless) rather than rows pointing at missing blobs.
 */
export async function deleteServerWithFiles(
  db: Db,
  blobs: BlobStore,
  serverId: ServerId,
  options: { ownerId?: TeamId; onBlobError?: (key: string, error: unknown) => void } = {},
): Promise<DeletedServer | undefined> {
  const outcome = await db.transaction().execute(async (trx) => {
    let query = trx.selectFrom("servers").selectAll().where("id", "=", serverId);
    if (options.ownerId) query = query.where("team_id", "=", options.ownerId);
    const server = await query.forUpdate().executeTakeFirst();
    if (!server) return undefined;
    const files = await trx.selectFrom("files").select(["id", "storage_key", "size_bytes", "server_id", "category", "filename"]).where("server_id", "=", serverId).execute();
    const variants = await trx
      .selectFrom("file_variants")
      .innerJoin("files", "files.id", "file_variants.file_id")
      .select("file_variants.storage_key")
      .where("files.server_id", "=", serverId)
      .execute();
    const bytes = files.reduce((sum, f) => sum + Number(f.size_bytes), 0) + (await onDemandVariantBytes(trx, { serverId }));
    await trx.deleteFrom("servers").where("id", "=", serverId).execute();
    if (bytes > 0) await releaseQuota(trx, server.team_id, bytes);
    return { server, bytes, files, keys: [...files.map((f) => f.storage_key), ...variants.map((v) => v.storage_key)], fileCount: files.length };
  });
  if (!outcome) return undefined;
  // This instance stops serving them at once; others within the record cache's TTL.
  for (const file of outcome.files) invalidateCachedFile(db, file);
  let blobErrors = 0;
  for (const key of outcome.keys) {
    try {
      await blobs.delete(key);
    } catch (error) {
      blobErrors += 1;
      options.onBlobError?.(key, error);
    }
  }
  return { server: outcome.server, filesDeleted: outcome.fileCount, bytesReleased: outcome.bytes, blobErrors };
}
