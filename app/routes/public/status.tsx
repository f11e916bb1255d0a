import { CheckCircle2, XCircle } from "lucide-react";
import { data } from "react-router";
import { Badge } from "~/components/ui/badge";
import { formatDateTime } from "~/lib/format";
import { seoMeta } from "~/lib/seo";
import { checkHealth } from "~/services/maintenance/health.server";
import { uptimeHistory } from "~/services/maintenance/uptime.server";
import type { Route } from "./+types/status";

/** /status: the same live checks as /api/health, for people; answered 503 while a part is down so monitors see it too. */
export async function loader({ context }: Route.LoaderArgs) {
  const report = await checkHealth(context);
  // History lives in the database: while it is down the page still shows the live checks.
  const history = report.db.ok ? await uptimeHistory(context.db).catch(() => null) : null;
  const parts = [
    { name: "Uploads and file delivery", ok: report.db.ok && report.storage.ok },
    { name: "Database", ok: report.db.ok },
    { name: "File storage", ok: report.storage.ok },
    ...(report.scanner ? [{ name: "Malware scanning", ok: report.scanner.ok }] : []),
  ];
  return data(
    { appName: context.config.APP_NAME, appUrl: context.config.appUrl, ok: report.status === "ok", parts, history, checkedAt: new Date().toISOString() },
    { status: report.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { appName, appUrl } = loaderData;
  return seoMeta({ title: "Status", description: `Live status of ${appName}: uploads, file delivery, database and storage.`, keywords: [], path: "/status", appName, appUrl });
}

export default function Status({ loaderData }: Route.ComponentProps) {
  const { appName, ok, parts, history, checkedAt } = loaderData;
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 sm:px-6" aria-labelledby="status-title">
      <h1 id="status-title" className="text-4xl font-black tracking-tight">{`${appName} status`}</h1>
      <p className="mt-4 text-lg font-semibold" data-testid="status-summary" role="status">
        {ok ? "All systems operational" : "Some systems are not working right now"}
      </p>
      <p className="mt-1 text-sm text-muted-foreground">{`Checked live at ${formatDateTime(checkedAt)}. Reload the page to check again.`}</p>
      <ul className="mt-8 divide-y rounded-lg border" aria-label="Systems">
        {parts.map((part) => (
          <li key={part.name} className="flex items-center justify-between gap-3 p-4">
            <span className="font-medium">{part.name}</span>
            <Badge variant={part.ok ? "success" : "destructive"} className="gap-1">
              {part.ok ? <CheckCircle2 className="size-3.5" aria-hidden /> : <XCircle className="size-3.5" aria-hidden />}
              {part.ok ? "Operational" : "Down"}
            </Badge>
          </li>
        ))}
      </ul>
      <UptimeBars history={history} />
      <p className="mt-6 text-sm text-muted-foreground">
        Scripts and monitors can read the same checks as JSON at <code className="font-mono">/api/health</code>.
      </p>
    </section>
  );
}

function formatUptime(percent: number): string {
  return percent >= 99.995 ? "100%" : `${percent.toFixed(2)}%`;
}

/** The last 30 days, one bar per day: green when up all day, amber for a partial outage, red below 95 %, grey before records began. */
function UptimeBars({ history }: { history: Route.ComponentProps["loaderData"]["history"] }) {
  if (!history) return <p className="mt-8 text-sm text-muted-foreground">Uptime history is unavailable while the database is down.</p>;
  return (
    <section className="mt-8 space-y-3" aria-labelledby="uptime-title">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="uptime-title" className="text-lg font-semibold">{`Uptime, last ${history.days.length} days`}</h2>
        <p className="text-sm font-medium" data-testid="uptime-percent">
          {history.percent === null ? "No records yet" : `${formatUptime(history.percent)} uptime`}
        </p>
      </div>
      <ol className="flex h-10 items-stretch gap-0.5" aria-label="Uptime by day">
        {history.days.map((day) => {
          const label = day.percent === null ? `${day.day}: no records` : `${day.day}: ${formatUptime(day.percent)} up`;
          const tone = day.percent === null ? "bg-muted" : day.percent >= 99.9 ? "bg-emerald-600" : day.percent >= 95 ? "bg-amber-500" : "bg-red-600";
          return (
            <li key={day.day} className={`flex-1 rounded-sm ${tone}`} title={label} data-testid="uptime-day">
              <span className="sr-only">{label}</span>
            </li>
          );
        })}
      </ol>
      <div className="flex justify-between text-xs text-muted-foreground">
        <span>{`${history.days.length} days ago`}</span>
        <span>Today</span>
      </div>
    </section>
  );
}
