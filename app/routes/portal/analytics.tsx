import { BarChart3, FileStack, HardDrive, PieChart, Upload } from "lucide-react";
import { Link, useNavigation, useSearchParams } from "react-router";
import { RankedChart, StoredChart, TrafficChart, UploadsChart } from "~/components/analytics/charts";
import { PageHeader } from "~/components/portal/page-header";
import { StatCard } from "~/components/portal/stat-card";
import { Button } from "~/components/ui/button";
import { Skeleton } from "~/components/ui/skeleton";
import { formatBytes, formatPercent } from "~/lib/format";
import { pageTitle } from "~/lib/site";
import { cn } from "~/lib/utils";
import { ANALYTICS_RANGES, getAnalytics, parseRange } from "~/services/stats/analytics.server";
import { requireTeam } from "~/http/guards.server";
import type { Route } from "./+types/analytics";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Analytics", matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context);
  const range = parseRange(new URL(request.url).searchParams.get("range"));
  return { analytics: await getAnalytics(context.db, team.id, range), ranges: ANALYTICS_RANGES };
}

export default function Analytics({ loaderData }: Route.ComponentProps) {
  const { analytics, ranges } = loaderData;
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const reloading = navigation.state === "loading" && navigation.location.pathname === "/analytics";
  const { totals } = analytics;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Media Analytics"
        description="Uploads, storage and traffic across your servers."
        actions={
          <nav aria-label="Time range" className="inline-flex rounded-md border p-1">
            {ranges.map((r) => (
              <Link
                key={r}
                to={`?range=${r}`}
                preventScrollReset
                aria-current={analytics.range === r ? "page" : undefined}
                className={cn(
                  "rounded px-3 py-1 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                  analytics.range === r ? "bg-primary text-primary-foreground" : "text-muted-foreground hover:bg-accent",
                )}
              >
                {r} days
              </Link>
            ))}
          </nav>
        }
      />
      <section aria-label="Totals" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard title="Total Files" value={totals.files} icon={FileStack} />
        <StatCard title="Total Size" value={formatBytes(totals.bytes)} icon={HardDrive} />
        <StatCard title="Monthly Uploads" value={totals.monthlyUploads} icon={Upload} hint="Since the 1st of this month" />
        <StatCard title="Storage Used" value={formatPercent(totals.storagePercent)} icon={PieChart} hint="Of your plan's quota" />
      </section>
      {!analytics.hasData ? (
        <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed p-10 text-center">
          <BarChart3 className="size-10 text-muted-foreground" aria-hidden />
          <h2 className="text-lg font-semibold">No Analytics Data Yet</h2>
          <p className="max-w-md text-sm text-muted-foreground">Charts appear once your servers upload or serve files.</p>
          <Button asChild size="sm">
            <Link to="/upload">Upload Media</Link>
          </Button>
        </div>
      ) : reloading ? (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2" aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-80" />
          ))}
        </div>
      ) : (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2" key={params.get("range") ?? "30"}>
          <UploadsChart days={analytics.days} />
          <StoredChart days={analytics.days} />
          <TrafficChart days={analytics.days} />
          <RankedChart title="Top categories" description="Stored files by category." rows={analytics.categories} />
          <RankedChart title="Top players" description="Players with the most stored files." rows={analytics.players} />
        </div>
      )}
    </div>
  );
}
