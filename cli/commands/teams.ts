import { sql } from "kysely";
import type { AppContext } from "../../app/services/app-context.server.ts";
import { findUserByEmail } from "../../app/services/accounts/users.server.ts";
import { isUuid } from "../../app/services/platform/ids.server.ts";
import { resolveCurrentTeam } from "../../app/services/teams/teams.server.ts";
import { stringArg, UsageError, type Command } from "../command.ts";

/**
 * The team a command acts in: `--team <id>` when given, else the first team (their own) of the
 * person named by `--<emailOption>`, as the portal picks it for a fresh session.
 */
export async function teamFromArgs(ctx: AppContext, args: Record<string, string | boolean | undefined>, emailOption: string): Promise<{ id: string; name: string; email: string | null }> {
  const user = await findUserByEmail(ctx.db, stringArg(args, emailOption));
  if (!user) throw new UsageError(`No user with e-mail ${args[emailOption]}`);
  if (typeof args.team === "string" && args.team.trim()) {
    const teamId = args.team.trim();
    const member = isUuid(teamId)
      ? await ctx.db
          .selectFrom("team_members")
          .innerJoin("teams", "teams.id", "team_members.team_id")
          .select(["teams.id", "teams.name"])
          .where("team_id", "=", teamId)
          .where("user_id", "=", user.id)
          .executeTakeFirst()
      : undefined;
    if (!member) throw new UsageError(`${user.email} is not a member of team ${teamId}`);
    return { ...member, email: user.email };
  }
  const team = await resolveCurrentTeam(ctx.db, user.id, null);
  if (!team) throw new UsageError(`${user.email} belongs to no team`);
  return { id: team.id, name: team.name, email: user.email };
}

export const TEAM_OPTION = { type: "string", description: "the team id (default: the person's own team)" } as const;

export const teamList: Command = {
  name: "team:list",
  summary: "List teams with their owner, members, plan and storage used",
  options: {},
  async run(ctx) {
    const rows = await ctx.db
      .selectFrom("teams")
      .innerJoin("users", "users.id", "teams.owner_user_id")
      .leftJoin("subscriptions", "subscriptions.team_id", "teams.id")
      .leftJoin("account_usage", "account_usage.team_id", "teams.id")
      .select((eb) => [
        "teams.id",
        "teams.name",
        "users.email as owner",
        "subscriptions.tier",
        "account_usage.used_bytes",
        eb.selectFrom("team_members").select(sql<number>`count(*)::int`.as("n")).whereRef("team_members.team_id", "=", "teams.id").as("members"),
      ])
      .orderBy("teams.created_at", "asc")
      .execute();
    const teams = rows.map((r) => ({ ...r, tier: r.tier ?? "free", used_bytes: Number(r.used_bytes ?? 0), members: Number(r.members ?? 0) }));
    const text = teams.length
      ? teams.map((t) => `${t.id}  ${t.name}  owner ${t.owner ?? "(no e-mail)"}  ${t.members} member(s)  ${t.tier}  ${t.used_bytes} bytes`).join("\n")
      : "No teams yet";
    return { json: teams, text };
  },
};
