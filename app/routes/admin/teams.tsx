import { Building2 } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent } from "~/components/ui/card";
import { formatBytes, formatCount, formatDate } from "~/lib/format";
import { PLANS, isTier } from "~/lib/plans";
import { pageTitle } from "~/lib/site";
import { requireUserWithRole } from "~/http/guards.server";
import { listTeamsForAdmin } from "~/services/stats/admin-stats.server";
import type { Route } from "./+types/teams";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserWithRole(request, context, "admin");
  const teams = await listTeamsForAdmin(context.db);
  return {
    appName: context.config.APP_NAME,
    teams: teams.map((t) => ({ ...t, createdAt: t.createdAt.toISOString() })),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle("Teams", loaderData?.appName) }];
}

export default function AdminTeams({ loaderData }: Route.ComponentProps) {
  const { teams } = loaderData;
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Teams</h1>
          <p className="text-muted-foreground">Every team, its owner, members, plan and storage.</p>
        </div>
        <Badge variant="outline" className="gap-1 text-sm">
          <Building2 className="size-4" aria-hidden /> {formatCount(teams.length, "team")}
        </Badge>
      </div>
      {teams.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 py-12 text-center">
            <Building2 className="size-10 text-muted-foreground" aria-hidden />
            <h2 className="text-lg font-semibold">No teams yet</h2>
            <p className="text-muted-foreground">Each account gets a team when it signs up.</p>
          </CardContent>
        </Card>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Teams">
          {teams.map((team) => (
            <li key={team.id} className="flex flex-col gap-1 p-3 md:flex-row md:items-center md:gap-4" data-testid="admin-team-row">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{team.name}</p>
                <p className="truncate text-xs text-muted-foreground">
                  Owner {team.ownerName ?? "Unnamed User"} · {team.ownerEmail ?? "no e-mail"} · since {formatDate(team.createdAt)}
                </p>
              </div>
              <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
                <span>{formatCount(team.members, "member")}</span>
                <span>{formatCount(team.servers, "server")}</span>
                <span>{isTier(team.tier) ? PLANS[team.tier].name : team.tier}</span>
                <span>{formatBytes(team.usedBytes)}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
