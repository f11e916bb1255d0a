import { useRouteLoaderData } from "react-router";
import type { CurrentTeam, TeamPermission } from "~/lib/team-roles";

/**
 * Whether the signed-in member may do `permission` in the current team, from the portal layout's
 * data: controls they cannot use are not shown (the server refuses them anyway).
 */
export function useTeamPermission(permission: TeamPermission): boolean {
  const layout = useRouteLoaderData("routes/portal/layout") as { team?: CurrentTeam } | undefined;
  return layout?.team?.permissions.includes(permission) ?? false;
}
