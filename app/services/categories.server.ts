import { sql } from "kysely";
import type { Db } from "../../db/index.ts";
import type { CategoryCount } from "../lib/categories.ts";

export type CategoryScope = { userId: string } | { serverId: string };

/**
 * The categories an account's (or one server's) files are stored under, exactly as stored, with
 * their file counts. Counted per server on files_server_category_created_idx (files.user_id is
 * always the server owner's), so the scan reads the index, not the rows.
 */
export async function listStoredCategories(db: Db, scope: CategoryScope): Promise<CategoryCount[]> {
  let query = db.selectFrom("files").select(["files.category", sql<string>`count(*)`.as("files")]);
  query =
    "serverId" in scope
      ? query.where("files.server_id", "=", scope.serverId)
      : query.where("files.server_id", "in", db.selectFrom("servers").select("servers.id").where("servers.user_id", "=", scope.userId));
  const rows = await query.groupBy("files.category").execute();
  return rows.map((row) => ({ category: row.category, files: Number(row.files) }));
}
