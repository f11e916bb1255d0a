import type { AppContext } from "../../app/services/app-context.server.ts";
import { findUserByEmail } from "../../app/services/accounts/users.server.ts";
import { parseId } from "../../app/services/platform/ids.server.ts";
import type { TeamId } from "../../app/lib/ids.ts";
import { resolveCurrentTeam } from "../../app/services/teams/teams.server.ts";
import { listTeamsForAdmin } from "../../app/services/stats/admin-stats.server.ts";
import { stringArg, UsageError, type Command } from "../command.ts";

/**
 * The team a command acts in: `--team <id>` when given, else the first team (their own) of the
 * person named by `--<emailOption>`, as the portal picks it for a fresh session.
 */
export async function teamFromArgs(ctx: AppContext, args: Record<string, string | boolean | undefined>, emailOption: string): Promise<{ id: TeamId; name: string; email: string | null }> {
  const user = await findUserByEmail(ctx.db, stringArg(args, emailOption));
  if (!user) throw new UsageError(`No user with e-mail ${args[emailOption]}`);
  if (typeof args.team === "string" && args.team.trim()) {
    const teamId = parseId<TeamId>(args.team.trim());
    const member = teamId
      ? await ctx.db
          .selectFrom("team_members")
          .innerJoin("teams", "teams.id", "team_members.team_id")
          .select(["teams.id", "teams.name"])
          .where("team_id", "=", teamId)
          .where("user_id", "=", user.id)
          .executeTakeFirst()
      : undefined;
    if (!member) throw new UsageError(`${user.email} is not a member of team ${args.team.trim()}`);
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
    // The admin screen's list, oldest first as the other :list commands print.
    const teams = (await listTeamsForAdmin(ctx.db)).reverse().map((t) => ({ id: t.id, name: t.name, owner: t.ownerEmail, members: t.members, servers: t.servers, tier: t.tier, used_bytes: t.usedBytes }));
    const text = teams.length
      ? teams.map((t) => `${t.id}  ${t.name}  owner ${t.owner ?? "(no e-mail)"}  ${t.members} member(s)  ${t.tier}  ${t.used_bytes} bytes`).join("\n")
      : "No teams yet";
    return { json: teams, text };
  },
};
