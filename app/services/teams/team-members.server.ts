import type { Db } from "../../../db/index";
import { DomainError } from "~/services/platform/domain-error.server";
import { isAssignableRole, isTeamPermission, type AssignableRole, type TeamPermission, type TeamRole } from "~/lib/team-roles";
import { createTeam, effectivePermissions, permissionsFor } from "~/services/teams/teams.server";
import type { TeamId, UserId } from "~/lib/ids";

export interface TeamMemberRow {
  userId: UserId;
  email: string | null;
  displayName: string | null;
  role: TeamRole;
  permissions: TeamPermission[];
  joinedAt: Date;
}

export function listTeamMembers(db: Db, teamId: TeamId): Promise<TeamMemberRow[]> {
  return db
    .selectFrom("team_members as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select(["m.user_id as userId", "u.email", "u.display_name as displayName", "m.role", "m.permissions", "m.joined_at as joinedAt"])
    .where("m.team_id", "=", teamId)
    .orderBy((eb) => eb.case().when("m.role", "=", "owner").then(0).when("m.role", "=", "admin").then(1).else(2).end())
    .orderBy("m.joined_at")
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, permissions: effectivePermissions(row.role, row.permissions) })));
}

/** A role and permission list from a form: the role must be assignable, each permission known. */
export function parseMemberAccess(input: { role: unknown; permissions?: unknown }): { role: AssignableRole; permissions: TeamPermission[] | undefined } {
  if (!isAssignableRole(input.role)) throw new DomainError("invalid_request", "Role must be admin, developer or member");
  if (input.permissions === undefined) return { role: input.role, permissions: undefined };
  const list = Array.isArray(input.permissions) ? input.permissions : [input.permissions];
  const unknown = list.find((value) => !isTeamPermission(value));
  if (unknown !== undefined) throw new DomainError("invalid_request", `Unknown permission: ${String(unknown)}`);
  return { role: input.role, permissions: list as TeamPermission[] };
}

/** A member's role in the team; undefined for anyone else. */
export async function memberRole(db: Db, teamId: TeamId, userId: UserId): Promise<TeamRole | undefined> {
  const row = await db.selectFrom("team_members").select("role").where("team_id", "=", teamId).where("user_id", "=", userId).executeTakeFirst();
  return row?.role;
}

/** How the audit trail names a member: their e-mail, else their name. */
export async function memberLabel(db: Db, userId: UserId): Promise<string> {
  const row = await db.selectFrom("users").select(["display_name", "email"]).where("id", "=", userId).executeTakeFirst();
  return row?.email ?? row?.display_name ?? "a member";
}

/** Change a member's role and permissions; the owner's own row is changed only by a transfer. */
export async function updateTeamMember(
  db: Db,
  input: { teamId: TeamId; userId: UserId; role: AssignableRole; permissions?: TeamPermission[] },
): Promise<void> {
  const role = await memberRole(db, input.teamId, input.userId);
  if (!role) throw new DomainError("not_found", "Member not found");
  if (role === "owner") throw new DomainError("permission_denied", "The owner's access cannot be changed; transfer ownership first");
  await db
    .updateTable("team_members")
    .set({ role: input.role, permissions: permissionsFor(input.role, input.permissions) })
    .where("team_id", "=", input.teamId)
    .where("user_id", "=", input.userId)
    .execute();
}

/** Someone who leaves their last team gets a fresh team of their own, so the portal always has one to act in. */
async function removeMembership(db: Db, teamId: TeamId, userId: UserId): Promise<void> {
  await db.deleteFrom("team_members").where("team_id", "=", teamId).where("user_id", "=", userId).execute();
  await db.updateTable("sessions").set({ team_id: null }).where("user_id", "=", userId).where("team_id", "=", teamId).execute();
  const left = await db.selectFrom("team_members").select("team_id").where("user_id", "=", userId).limit(1).executeTakeFirst();
  if (!left) {
    const user = await db.selectFrom("users").select(["display_name", "email"]).where("id", "=", userId).executeTakeFirstOrThrow();
    await createTeam(db, { name: user.display_name ?? user.email ?? "Personal", ownerUserId: userId });
  }
}

/** Ends a membership that is not the owner's: `notMember` and `owner` are the refusals' words. */
function endMembership(db: Db, input: { teamId: TeamId; userId: UserId }, refusals: { notMember: string; owner: string }): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const role = await memberRole(trx, input.teamId, input.userId);
    if (!role) throw new DomainError("not_found", refusals.notMember);
    if (role === "owner") throw new DomainError("permission_denied", refusals.owner);
    await removeMembership(trx, input.teamId, input.userId);
  });
}

/** An admin removes a member (never the owner). */
export function removeTeamMember(db: Db, input: { teamId: TeamId; userId: UserId }): Promise<void> {
  return endMembership(db, input, { notMember: "Member not found", owner: "The owner cannot be removed; transfer ownership first" });
}

/** A member leaves; the owner must hand the team to someone first. */
export function leaveTeam(db: Db, input: { teamId: TeamId; userId: UserId }): Promise<void> {
  return endMembership(db, input, { notMember: "You are not a member of this team", owner: "The owner cannot leave; transfer ownership to another member first" });
}

/** The owner hands the team to another member, who becomes owner; the old owner stays as an admin. */
export async function transferTeamOwnership(db: Db, input: { teamId: TeamId; fromUserId: UserId; toUserId: UserId }): Promise<void> {
  if (input.fromUserId === input.toUserId) throw new DomainError("invalid_request", "You already own this team");
  await db.transaction().execute(async (trx) => {
    const team = await trx.selectFrom("teams").select("owner_user_id").where("id", "=", input.teamId).forUpdate().executeTakeFirst();
    if (!team) throw new DomainError("not_found", "Team not found");
    if (!(await memberRole(trx, input.teamId, input.toUserId))) throw new DomainError("not_found", "The new owner must be a member of the team");
    if (team.owner_user_id !== input.fromUserId) throw new DomainError("permission_denied", "Only the owner can transfer the team");
    await trx.updateTable("teams").set({ owner_user_id: input.toUserId }).where("id", "=", input.teamId).execute();
    await trx
      .updateTable("team_members")
      .set({ role: "admin", permissions: permissionsFor("admin") })
      .where("team_id", "=", input.teamId)
      .where("user_id", "=", input.fromUserId)
      .execute();
    await trx
      .updateTable("team_members")
      .set({ role: "owner", permissions: permissionsFor("owner") })
      .where("team_id", "=", input.teamId)
      .where("user_id", "=", input.toUserId)
      .execute();
  });
}
