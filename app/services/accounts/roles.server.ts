import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { AdminUserRow, Role } from "~/lib/roles";
import { DomainError } from "~/services/platform/domain-error.server";
import type { UserId } from "~/lib/ids";

/** Every account, newest first, with the server count and stored bytes of the teams it owns (spec: the admin list). */
export async function listUsersForAdmin(db: Db): Promise<AdminUserRow[]> {
  const rows = await db
    .selectFrom("users")
    .select((eb) => [
      "users.id",
      "users.email",
      "users.display_name",
      "users.avatar_url",
      "users.role",
      "users.created_at",
      eb
        .selectFrom("account_usage")
        .innerJoin("teams", "teams.id", "account_usage.team_id")
        .select(sql<number>`coalesce(sum(account_usage.used_bytes), 0)`.as("n"))
        .whereRef("teams.owner_user_id", "=", "users.id")
        .as("used_bytes"),
      eb
        .selectFrom("servers")
        .innerJoin("teams", "teams.id", "servers.team_id")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("teams.owner_user_id", "=", "users.id")
        .as("servers_count"),
    ])
    .orderBy("users.created_at", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    role: row.role,
    createdAt: new Date(row.created_at).toISOString(),
    serversCount: Number(row.servers_count ?? 0),
    totalStorageUsed: Number(row.used_bytes ?? 0),
  }));
}

/**
 * Moves a user to any role. The admin rows are locked first, so two admins demoting themselves
 * at once cannot leave the system with none.
 */
export async function setUserRole(db: Db, input: { actorId: UserId; userId: UserId; role: Role }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const admins = await trx.selectFrom("users").select("id").where("role", "=", "admin").forUpdate().execute();
    const target = await trx.selectFrom("users").select(["id", "role"]).where("id", "=", input.userId).executeTakeFirst();
    if (!target) throw new DomainError("not_found", "User not found");
    if (target.role === "admin" && input.role !== "admin" && admins.length <= 1) {
      throw new DomainError("role_change_refused", 
        input.userId === input.actorId
          ? "You are the only admin, so you cannot remove your own admin role."
          : "At least one admin must remain.",
      );
    }
    await trx.updateTable("users").set({ role: input.role }).where("id", "=", input.userId).execute();
  });
}
