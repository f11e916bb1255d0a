import type { AppContext } from "~/services/app-context.server";
import { deleteServerFile } from "~/services/files/delete-files.server";
import type { FileId, ServerId } from "~/lib/ids";

const BATCH = 500;
/** Blob HEADs in flight at once: enough to keep S3 busy, few enough for a small disk. */
const PARALLEL = 16;

export interface FileWithoutBlob {
  id: FileId;
  server_id: ServerId;
  path: string;
  size_bytes: number;
}

export interface StorageCheck {
  checked: number;
  missing: FileWithoutBlob[];
  /** Rows removed (and their bytes released) when asked to repair. */
  repaired: number;
}

/**
 * Finds file rows whose bytes are gone from the blob store (a restored backup, a lost disk, a
 * bucket emptied by hand): such a file only 404s. With `repair`, each is deleted like an owner's
 * delete, so the quota it held is released and usage is again the sum of what is stored.
 */
export async function checkStoredFiles(ctx: Pick<AppContext, "db" | "blobs" | "logger">, options: { repair?: boolean } = {}): Promise<StorageCheck> {
  const missing: FileWithoutBlob[] = [];
  let checked = 0;
  let after: FileId | null = null;
  for (;;) {
    const rows = await ctx.db
      .selectFrom("files")
      .select(["id", "server_id", "category", "filename", "storage_key", "size_bytes"])
      .$if(after !== null, (q) => q.where("id", ">", after!))
      .orderBy("id")
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    for (let i = 0; i < rows.length; i += PARALLEL) {
      const slice = rows.slice(i, i + PARALLEL);
      const found = await Promise.all(slice.map((row) => ctx.blobs.head(row.storage_key)));
      slice.forEach((row, j) => {
        if (!found[j]) missing.push({ id: row.id, server_id: row.server_id, path: `${row.server_id}/${row.category}/${row.filename}`, size_bytes: Number(row.size_bytes) });
      });
    }
    checked += rows.length;
    after = rows[rows.length - 1]!.id;
  }
  let repaired = 0;
  if (options.repair) {
    for (const file of missing) if (await deleteServerFile(ctx, file.server_id, file.id, { evenInOpenCase: true })) repaired += 1;
  }
  return { checked, missing, repaired };
}
