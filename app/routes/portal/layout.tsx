import { data } from "react-router";
import { UserMenu } from "~/components/auth/user-menu";
import { OverageBanner } from "~/components/billing/overage-banner";
import { PortalOutlet } from "~/components/portal/page-skeleton";
import { PortalShell } from "~/components/layout/portal-shell";
import { TeamSwitcher } from "~/components/teams/team-switcher";
import { sidebarOpenFromCookie } from "~/lib/navigation";
import { requireTeam } from "~/http/guards.server";
import { getStorageOverage } from "~/services/billing/overage.server";
import { listTeamsForUser } from "~/services/teams/teams.server";
import type { Route } from "./+types/layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, team, headers } = await requireTeam(request, context);
  const [teams, overage] = await Promise.all([listTeamsForUser(context.db, user.id), getStorageOverage(context.db, team.id)]);
  return data(
    {
      appName: context.config.APP_NAME,
      sidebarOpen: sidebarOpenFromCookie(request.headers.get("Cookie")),
      user: { id: user.id, displayName: user.displayName, email: user.email, avatarUrl: user.avatarUrl },
      isAdmin: user.role === "admin",
      team,
      teams,
      overage,
    },
    { headers },
  );
}

export default function PortalLayout({ loaderData }: Route.ComponentProps) {
  return (
    <PortalShell
      appName={loaderData.appName}
      sidebarOpen={loaderData.sidebarOpen}
      showAdmin={loaderData.isAdmin}
      permissions={loaderData.team.permissions}
      teamSwitcher={<TeamSwitcher current={loaderData.team} teams={loaderData.teams} />}
      userMenu={<UserMenu user={loaderData.user} />}
    >
      <OverageBanner overage={loaderData.overage} />
      <PortalOutlet />
    </PortalShell>
  );
}
