import type { Db } from "../../../db/index";
import type { ServerId } from "~/lib/ids";

export interface RetentionRule {
  category: string;
  days: number;
}

/** The server's rules, by category; the retention sweep reads the same table. */
export function listRetentionRules(db: Db, serverId: ServerId): Promise<RetentionRule[]> {
  return db.selectFrom("retention_rules").select(["category", "days"]).where("server_id", "=", serverId).orderBy("category").execute();
}

/** One rule per category: saving a category again replaces its days. */
export async function upsertRetentionRule(db: Db, serverId: ServerId, rule: RetentionRule): Promise<void> {
  await db
    .insertInto("retention_rules")
    .values({ server_id: serverId, category: rule.category, days: rule.days })
    .onConflict((oc) => oc.columns(["server_id", "category"]).doUpdateSet({ days: rule.days }))
    .execute();
}

export async function deleteRetentionRule(db: Db, serverId: ServerId, category: string): Promise<boolean> {
  const result = await db.deleteFrom("retention_rules").where("server_id", "=", serverId).where("category", "=", category).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
