import { CheckCircle2, XCircle } from "lucide-react";
import { data } from "react-router";
import { Badge } from "~/components/ui/badge";
import { formatDateTime } from "~/lib/format";
import { seoMeta } from "~/lib/seo";
import { checkHealth } from "~/services/maintenance/health.server";
import type { Route } from "./+types/status";

/** /status: the same live checks as /api/health, for people; answered 503 while a part is down so monitors see it too. */
export async function loader({ context }: Route.LoaderArgs) {
  const report = await checkHealth(context);
  const parts = [
    { name: "Uploads and file delivery", ok: report.db.ok && report.storage.ok },
    { name: "Database", ok: report.db.ok },
    { name: "File storage", ok: report.storage.ok },
    ...(report.scanner ? [{ name: "Malware scanning", ok: report.scanner.ok }] : []),
  ];
  return data(
    { appName: context.config.APP_NAME, appUrl: context.config.appUrl, ok: report.status === "ok", parts, checkedAt: new Date().toISOString() },
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
  const { appName, ok, parts, checkedAt } = loaderData;
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
      <p className="mt-6 text-sm text-muted-foreground">
        Scripts and monitors can read the same checks as JSON at <code className="font-mono">/api/health</code>.
      </p>
    </section>
  );
}
