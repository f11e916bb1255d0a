import type { Db } from "../../../db/index";
import { DomainError } from "~/services/platform/domain-error.server";
import { ROLE_PERMISSIONS, TEAM_PERMISSIONS, type CurrentTeam, type TeamPermission, type TeamRole } from "~/lib/team-roles";
import type { TeamId, UserId } from "~/lib/ids";

export const TEAM_NAME_MAX = 60;

/** A team name as typed in a form: trimmed, 1–60 characters, or a 400 that says what is wrong. */
export function parseTeamName(value: unknown): string {
  const name = typeof value === "string" ? value.trim() : "";
  if (!name) throw new DomainError("invalid_request", "Team name is required");
  if (name.length > TEAM_NAME_MAX) throw new DomainError("invalid_request", `Team name must be at most ${TEAM_NAME_MAX} characters`);
  return name;
}

/**
 * A team with its owner as first member, its empty usage counter and its free plan. Its id is its
 * own, never its owner's (docs/decisions/096): teams made before that kept the id they had.
 */
export async function createTeam(db: Db, input: { name: string; ownerUserId: UserId }): Promise<{ id: TeamId; name: string }> {
  const run = async (trx: Db) => {
    const team = await trx
      .insertInto("teams")
      .values({ name: input.name, owner_user_id: input.ownerUserId })
      .returning(["id", "name"])
      .executeTakeFirstOrThrow();
    await trx.insertInto("team_members").values({ team_id: team.id, user_id: input.ownerUserId, role: "owner", permissions: [...TEAM_PERMISSIONS] }).execute();
    await trx.insertInto("account_usage").values({ team_id: team.id }).execute();
    await trx.insertInto("subscriptions").values({ team_id: team.id }).execute();
    return team;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** What a member may do: the owner everything, anyone else what their row holds. */
export function effectivePermissions(role: TeamRole, stored: readonly string[]): TeamPermission[] {
  if (role === "owner") return [...TEAM_PERMISSIONS];
  return TEAM_PERMISSIONS.filter((permission) => stored.includes(permission));
}

/** The permissions a new member of `role` starts with, or the ones an admin chose (never more than the catalogue). */
export function permissionsFor(role: TeamRole, chosen?: readonly TeamPermission[]): TeamPermission[] {
  return effectivePermissions(role, chosen ?? ROLE_PERMISSIONS[role]);
}

export interface TeamChoice {
  id: TeamId;
  name: string;
  role: TeamRole;
}

/** The teams a person belongs to, their own first, for the switcher. */
export function listTeamsForUser(db: Db, userId: UserId): Promise<TeamChoice[]> {
  return db
    .selectFrom("team_members as m")
    .innerJoin("teams as t", "t.id", "m.team_id")
    .select(["t.id", "t.name", "m.role"])
    .where("m.user_id", "=", userId)
    .orderBy((eb) => eb.case().when("m.role", "=", "owner").then(0).else(1).end())
    .orderBy("m.joined_at")
    .orderBy("t.id")
    .execute();
}

/**
 * The team a signed-in person acts in: the one their session chose while they still belong to it,
 * else the first team they own (the one made with their account), else the first they joined. Null
 * only for someone who left every team (the portal then makes them one).
 */
export async function resolveCurrentTeam(db: Db, userId: UserId, chosenTeamId: TeamId | null): Promise<CurrentTeam | null> {
  let query = db
    .selectFrom("team_members as m")
    .innerJoin("teams as t", "t.id", "m.team_id")
    .select(["t.id", "t.name", "m.role", "m.permissions"])
    .where("m.user_id", "=", userId);
  if (chosenTeamId) query = query.orderBy((eb) => eb.case().when("m.team_id", "=", chosenTeamId).then(0).else(1).end());
  const rows = await query
    .orderBy((eb) => eb.case().when("m.role", "=", "owner").then(0).else(1).end())
    .orderBy("m.joined_at")
    .orderBy("t.created_at")
    .limit(1)
    .execute();
  const row = rows[0];
  if (!row) return null;
  return { id: row.id, name: row.name, role: row.role, permissions: effectivePermissions(row.role, row.permissions) };
}

/** Switch the session to another team the person belongs to; a 404 for any other team. */
export async function chooseSessionTeam(db: Db, input: { sessionId: string; userId: UserId; teamId: TeamId | undefined }): Promise<void> {
  const member = input.teamId
    ? await db.selectFrom("team_members").select("team_id").where("team_id", "=", input.teamId).where("user_id", "=", input.userId).executeTakeFirst()
    : undefined;
  if (!member) throw new DomainError("not_found", "Team not found");
  await db.updateTable("sessions").set({ team_id: input.teamId }).where("id", "=", input.sessionId).execute();
}

/**
 * Each person's own team: the first team they own (made with their account, or the one they made
 * after leaving every other). What the admin screens and the CLI mean by "a user's plan". A
 * subquery of (owner_user_id, team_id) rows, one per owner, to join on.
 */
export function personalTeams(db: Db) {
  return db
    .selectFrom("teams")
    .select(["owner_user_id", "id as team_id"])
    .distinctOn("owner_user_id")
    .orderBy("owner_user_id")
    .orderBy("created_at")
    .orderBy("id");
}

export async function findPersonalTeam(db: Db, userId: UserId): Promise<TeamId | undefined> {
  const row = await personalTeams(db).where("owner_user_id", "=", userId).executeTakeFirst();
  return row?.team_id;
}

/** The person who owns a team, for an admin looking at one of its servers. */
export function findTeamOwner(db: Db, teamId: TeamId): Promise<{ display_name: string | null; email: string | null } | undefined> {
  return db
    .selectFrom("teams")
    .innerJoin("users", "users.id", "teams.owner_user_id")
    .select(["users.display_name", "users.email"])
    .where("teams.id", "=", teamId)
    .executeTakeFirst();
}

export async function renameTeam(db: Db, teamId: TeamId, name: string): Promise<void> {
  await db.updateTable("teams").set({ name: parseTeamName(name) }).where("id", "=", teamId).execute();
}
