import { Activity, CheckCircle2, Download, Flag, Gauge, Server, Users, XCircle } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "~/components/portal/page-header";
import { StatCard } from "~/components/portal/stat-card";
import { StatusBadge } from "~/components/servers/server-card";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { formatBytes, formatCount, formatDate } from "~/lib/format";
import { pageTitle } from "~/lib/site";
import { ACTIVE_USER_WINDOW_DAYS, getAdminTotals, getSystemHealth, listAllServers, RECENT_SERVER_COUNT } from "~/services/stats/admin-stats.server";
import { requireUserWithRole } from "~/http/guards.server";
import { countOpenReports } from "~/services/files/file-reports.server";
import type { Route } from "./+types/dashboard";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Admin Dashboard", matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserWithRole(request, context, "admin");
  const [totals, recent, health, pendingReviews] = await Promise.all([
    getAdminTotals(context.db),
    listAllServers(context.db, RECENT_SERVER_COUNT),
    getSystemHealth(context),
    countOpenReports(context.db),
  ]);
  return { totals, recent, health, pendingReviews, activeWindowDays: ACTIVE_USER_WINDOW_DAYS };
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { totals, recent, health, pendingReviews, activeWindowDays } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader title="Admin Dashboard" description="The whole platform at a glance." />
      <section aria-label="Platform statistics" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5">
        <StatCard title="Total Servers" value={totals.totalServers} icon={Server} hint={`${formatCount(totals.totalFiles, "file")}, ${formatBytes(totals.storedBytes)} stored`} />
        <StatCard title="Total Downloads" value={totals.totalDownloads} icon={Download} hint="All time" />
        <StatCard title="System Bandwidth" value={formatBytes(totals.bandwidthBytes)} icon={Gauge} hint="Served, all time" />
        <StatCard title="Active Users" value={totals.activeUsers} icon={Users} hint={`Signed in within ${activeWindowDays} days, of ${totals.totalUsers}`} />
        <Link to="/admin/reports" className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
          <StatCard title="Pending Reviews" value={pendingReviews} icon={Flag} hint={pendingReviews ? "Reported files to review" : "Nothing waiting"} />
        </Link>
      </section>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader className="flex flex-row items-center justify-between space-y-0">
            <div className="space-y-1.5">
              <CardTitle>Recent Servers</CardTitle>
              <CardDescription>The newest servers on the platform.</CardDescription>
            </div>
            <Button asChild variant="outline" size="sm">
              <Link to="/admin/servers">All Servers</Link>
            </Button>
          </CardHeader>
          <CardContent>
            {recent.length === 0 ? (
              <p className="py-6 text-center text-muted-foreground">No servers yet</p>
            ) : (
              <ul className="divide-y" aria-label="Recent servers">
                {recent.map((s) => (
                  <li key={s.id} className="flex items-center justify-between gap-3 py-3">
                    <div className="min-w-0">
                      <p className="truncate font-medium">{s.name}</p>
                      <p className="truncate text-sm text-muted-foreground">
                        {s.ownerEmail ?? "Unknown owner"} · {formatDate(s.createdAt)} · {formatCount(s.fileCount, "file")}
                      </p>
                    </div>
                    <StatusBadge status={s.status} />
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Activity className="size-5" aria-hidden /> System Health
            </CardTitle>
            <CardDescription>Checked live when this page loaded.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="space-y-3" aria-label="System health">
              {health.map((h) => (
                <li key={h.name} className="flex items-center justify-between gap-2" data-testid="health-item">
                  <span className="flex min-w-0 items-start gap-2">
                    {h.ok ? <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-500" aria-hidden /> : <XCircle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />}
                    <span className="min-w-0">
                      <span className="block font-medium">{h.name}</span>
                      <span className="block break-words text-xs text-muted-foreground">{h.detail}</span>
                    </span>
                  </span>
                  <Badge variant={h.ok ? "success" : "destructive"}>{h.ok ? "Healthy" : "Unhealthy"}</Badge>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
