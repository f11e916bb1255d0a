import { Activity, BookOpen, FileImage, HardDrive, Images, KeyRound, Plus, Server, Upload } from "lucide-react";
import { Link } from "react-router";
import { ConnectionTests } from "~/components/dashboard/connection-tests";
import { GettingStarted } from "~/components/dashboard/getting-started";
import { PageHeader } from "~/components/portal/page-header";
import { StatCard } from "~/components/portal/stat-card";
import { StatusBadge } from "~/components/servers/server-card";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatBytes } from "~/lib/format";
import { pageTitle } from "~/lib/site";
import { DASHBOARD_SERVER_COUNT, getDashboardStats } from "~/services/stats/dashboard-stats.server";
import { requireTeam } from "~/http/guards.server";
import { listServersForTeam } from "~/services/servers/servers.server";
import type { Route } from "./+types/dashboard";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Dashboard", matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, team } = await requireTeam(request, context);
  const [stats, servers] = await Promise.all([
    // Spec: stat failures are only logged; the cards then show zeros.
    getDashboardStats(context.db, team.id).catch((error: unknown) => {
      context.logger.error({ err: error }, "dashboard stats failed");
      return null;
    }),
    listServersForTeam(context.db, team.id),
  ]);
  return {
    displayName: user.displayName,
    appName: context.config.APP_NAME,
    bases: { appUrl: context.config.appUrl, cdnUrl: context.config.cdnBaseUrl },
    progress: stats ? { server: stats.totalServers > 0, key: stats.apiKeys > 0, upload: stats.mediaFiles > 0 } : null,
    stats,
    servers: servers.slice(0, DASHBOARD_SERVER_COUNT).map((s) => ({ id: s.id, name: s.name, status: s.status, description: s.description })),
  };
}

const QUICK_ACTIONS = [
  { label: "Upload Media", to: "/upload", icon: Upload },
  { label: "View Gallery", to: "/gallery", icon: Images },
  { label: "Manage API Keys", to: "/api-keys", icon: KeyRound },
  { label: "View Docs", to: "/docs", icon: BookOpen },
];

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { stats, servers, displayName, progress, bases, appName } = loaderData;
  const onboarding = progress && !(progress.server && progress.key && progress.upload);
  return (
    <div className="space-y-6">
      <PageHeader title="Dashboard" description={`Welcome back${displayName ? `, ${displayName}` : ""}. Your servers, media and usage at a glance.`} />
      {onboarding ? <GettingStarted progress={progress} bases={bases} appName={appName} serverId={servers[0]?.id ?? null} /> : null}
      <section aria-label="Statistics" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard title="Total Servers" value={stats?.totalServers ?? 0} icon={Server} hint="Registered game servers" />
        <StatCard title="Media Files" value={stats?.mediaFiles ?? 0} icon={FileImage} hint="Files stored" />
        <StatCard
          title="Storage Used"
          value={formatBytes(stats?.storageUsedBytes ?? 0)}
          icon={HardDrive}
          hint={`of ${stats?.quotaGb ?? 5} GB available`}
        />
        <StatCard title="API Calls" value={stats?.apiCalls30d ?? 0} icon={Activity} hint="Last 30 days" />
      </section>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
          </CardHeader>
          <CardContent className="grid grid-cols-2 gap-3">
            {QUICK_ACTIONS.map(({ label, to, icon: Icon }) => (
              <Link
                key={to}
                to={to}
                className="flex flex-col items-center gap-2 rounded-lg border p-4 text-center text-sm font-medium transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <Icon className="size-6 text-primary" aria-hidden />
                {label}
              </Link>
            ))}
          </CardContent>
        </Card>
        <Card>
          <CardHeader className="flex flex-row items-center justify-between space-y-0">
            <CardTitle>Your Servers</CardTitle>
            {servers.length ? (
              <Button asChild variant="ghost" size="sm">
                <Link to="/servers">View all</Link>
              </Button>
            ) : null}
          </CardHeader>
          <CardContent>
            {servers.length === 0 ? (
              <div className="flex flex-col items-center gap-3 py-6 text-center">
                <p className="text-muted-foreground">No servers configured</p>
                <Button asChild size="sm">
                  <Link to="/servers?new=1">
                    <Plus aria-hidden /> Add Server
                  </Link>
                </Button>
              </div>
            ) : (
              <ul className="divide-y" aria-label="Your servers">
                {servers.map((s) => (
                  <li key={s.id}>
                    <Link to={`/servers/${s.id}`} className="flex items-center justify-between gap-2 rounded-sm py-3 hover:text-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
                      <span className="min-w-0">
                        <span className="block truncate font-medium">{s.name}</span>
                        <span className="block truncate text-sm text-muted-foreground">{s.description || "No description"}</span>
                      </span>
                      <StatusBadge status={s.status} />
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>

      <ConnectionTests />
    </div>
  );
}
