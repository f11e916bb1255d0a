import { ScrollText } from "lucide-react";
import { data, Form, Link, useFetcher, useNavigation } from "react-router";
import { NativeSelect } from "~/components/api-keys/native-select";
import { PageHeader } from "~/components/portal/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { ActionResult } from "~/lib/action-result";
import { formatDateTime } from "~/lib/format";
import { LOG_LEVELS } from "~/lib/log-levels";
import { PLANS } from "~/lib/plans";
import { pageTitle } from "~/lib/site";
import { actionFail, actionOk } from "~/http/action-results.server";
import { requireTeam, teamPermissionMessage } from "~/http/guards.server";
import { getAccountQuota } from "~/services/billing/quota.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { listDatasetsForTeam, setDatasetRetention } from "~/services/logs/log-datasets.server";
import { logEntriesThisMonth } from "~/services/logs/log-ingest.server";
import { decodeLogCursor, logFiltersOf, searchLogs } from "~/services/logs/log-search.server";
import type { Route } from "./+types/logs";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Logs", matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context, "view_logs");
  const query = new URL(request.url).searchParams;
  let filters;
  let before;
  try {
    filters = logFiltersOf(query);
    before = decodeLogCursor(query.get("cursor"));
  } catch (error) {
    if (!isDomainError(error, "invalid_request")) throw error;
    throw data(error.message, { status: 400 });
  }
  const [datasets, result, quota, used] = await Promise.all([
    listDatasetsForTeam(context.db, team.id),
    searchLogs(context.db, { teamId: team.id }, filters, { before }),
    getAccountQuota(context.db, team.id),
    logEntriesThisMonth(context.db, team.id),
  ]);
  return {
    cdnBaseUrl: context.config.cdnBaseUrl,
    query: Object.fromEntries(["dataset", "level", "resource", "q", "from", "to"].map((k) => [k, query.get(k) ?? ""])),
    metas: query.getAll("meta"),
    datasets,
    entries: result.entries.map((e) => ({ ...e, ts: e.ts.toISOString() })),
    next: result.next,
    volume: { used, limit: PLANS[quota.tier].logEntriesPerMonth, retentionCap: PLANS[quota.tier].logRetentionDays },
    canManage: team.permissions.includes("manage_servers"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { team } = await requireTeam(request, context, "view_logs");
  if (!team.permissions.includes("manage_servers")) return actionFail("Error", teamPermissionMessage(team, "manage_servers"), 403);
  const form = await request.formData();
  const quota = await getAccountQuota(context.db, team.id);
  try {
    await setDatasetRetention(context.db, { datasetId: String(form.get("datasetId") ?? ""), teamId: team.id, days: Number(form.get("days")), tier: quota.tier });
  } catch (error) {
    if (!isDomainError(error, "invalid_request", "not_found")) throw error;
    return actionFail("Error updating dataset", error.message, error.code === "not_found" ? 404 : 400);
  }
  return actionOk({ type: "success", title: "Retention updated" });
}

const LEVEL_VARIANT: Record<string, "secondary" | "destructive" | "success" | "outline"> = {
  trace: "outline",
  debug: "outline",
  info: "secondary",
  warn: "outline",
  error: "destructive",
  fatal: "destructive",
};

/** Stash file links a line mentions, so the line can show what it refers to. */
function mediaLinks(cdnBaseUrl: string, text: string): string[] {
  const base = cdnBaseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return [...new Set(text.match(new RegExp(`${base}/f/[A-Za-z0-9_./-]+\\.(?:png|jpe?g|webp|gif|avif)`, "g")) ?? [])].slice(0, 3);
}

function RetentionForm({ dataset, cap }: { dataset: { id: string; retentionDays: number }; cap: number }) {
  const fetcher = useFetcher<ActionResult>();
  return (
    <fetcher.Form method="post" className="flex items-center gap-2">
      <input type="hidden" name="datasetId" value={dataset.id} />
      <Label htmlFor={`days-${dataset.id}`} className="sr-only">
        Days kept
      </Label>
      <Input id={`days-${dataset.id}`} name="days" type="number" min={1} max={cap} defaultValue={dataset.retentionDays} className="h-8 w-20" />
      <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== "idle"}>
        Save
      </Button>
    </fetcher.Form>
  );
}

export default function Logs({ loaderData }: Route.ComponentProps) {
  const { query, metas, datasets, entries, next, volume, canManage, cdnBaseUrl } = loaderData;
  const busy = useNavigation().state === "loading";
  const olderHref = next ? `?${new URLSearchParams([...Object.entries(query).filter(([, v]) => v), ...metas.map((m) => ["meta", m]), ["cursor", next]])}` : null;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Logs"
        description={`What your scripts log, searchable. ${volume.used.toLocaleString("en-GB")} of ${volume.limit.toLocaleString("en-GB")} entries this month.`}
        actions={
          <Button asChild variant="outline" size="sm">
            <Link to="/docs#logs">How to send logs</Link>
          </Button>
        }
      />
      <Card>
        <CardContent className="pt-6">
          <Form method="get" className="grid gap-3 md:grid-cols-4" aria-label="Search logs">
            <div className="grid gap-1">
              <Label htmlFor="log-dataset">Dataset</Label>
              <NativeSelect id="log-dataset" name="dataset" defaultValue={query.dataset}>
                <option value="">All datasets</option>
                {[...new Set(datasets.map((d) => d.name))].map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1">
              <Label htmlFor="log-level">Level and above</Label>
              <NativeSelect id="log-level" name="level" defaultValue={query.level}>
                <option value="">Any level</option>
                {LOG_LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {level}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1">
              <Label htmlFor="log-resource">Resource</Label>
              <Input id="log-resource" name="resource" defaultValue={query.resource} placeholder="qb-banking" />
            </div>
            <div className="grid gap-1">
              <Label htmlFor="log-q">Message contains</Label>
              <Input id="log-q" name="q" defaultValue={query.q} placeholder="robbery" />
            </div>
            <div className="grid gap-1">
              <Label htmlFor="log-from">From</Label>
              <Input id="log-from" name="from" type="datetime-local" defaultValue={query.from} />
            </div>
            <div className="grid gap-1">
              <Label htmlFor="log-to">To</Label>
              <Input id="log-to" name="to" type="datetime-local" defaultValue={query.to} />
            </div>
            <div className="grid gap-1">
              <Label htmlFor="log-meta">Metadata (key=value)</Label>
              <Input id="log-meta" name="meta" defaultValue={metas[0] ?? ""} placeholder="citizenid=ABC123" />
            </div>
            <div className="flex items-end gap-2">
              <Button type="submit" disabled={busy}>
                {busy ? "Searching…" : "Search"}
              </Button>
              <Button asChild variant="ghost">
                <Link to="/logs">Clear</Link>
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
      {entries.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 py-12 text-center">
            <ScrollText className="size-8 text-muted-foreground" aria-hidden />
            <p className="font-medium">{datasets.length ? "No entries match" : "No logs yet"}</p>
            <p className="max-w-lg text-sm text-muted-foreground">
              {datasets.length
                ? "Widen the time range or clear a filter."
                : "Point a script's Discord webhook at your server's Stash webhook URL, or send entries to POST /api/logs with a key that may write logs."}
            </p>
          </CardContent>
        </Card>
      ) : (
        <ol className="divide-y rounded-md border font-mono text-sm" aria-label="Log entries">
          {entries.map((entry) => {
            const metadataText = Object.keys(entry.metadata).length ? JSON.stringify(entry.metadata) : "";
            const media = mediaLinks(cdnBaseUrl, `${entry.message} ${metadataText}`);
            return (
              <li key={entry.id} className="space-y-1 p-3" data-testid="log-row">
                <div className="flex flex-wrap items-center gap-2 font-sans text-xs text-muted-foreground">
                  <time dateTime={entry.ts}>{formatDateTime(entry.ts)}</time>
                  <Badge variant={LEVEL_VARIANT[entry.level] ?? "secondary"}>{entry.level}</Badge>
                  <span>
                    {entry.serverName} · {entry.dataset}
                  </span>
                  {entry.resource ? <span data-testid="log-resource">{entry.resource}</span> : null}
                </div>
                <p className="whitespace-pre-wrap break-words" data-testid="log-message">
                  {entry.message}
                </p>
                {metadataText ? <p className="break-all text-xs text-muted-foreground">{metadataText}</p> : null}
                {media.length ? (
                  <div className="flex gap-2">
                    {media.map((url) => (
                      <a key={url} href={url} target="_blank" rel="noreferrer">
                        <img src={`${url}?w=200&format=webp`} alt="Media this entry refers to" className="h-16 rounded border object-cover" loading="lazy" />
                      </a>
                    ))}
                  </div>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      {olderHref ? (
        <Button asChild variant="outline">
          <Link to={olderHref}>Older entries</Link>
        </Button>
      ) : null}
      {datasets.length ? (
        <Card>
          <CardHeader>
            <CardTitle>Datasets</CardTitle>
            <CardDescription>Each keeps its entries for its own number of days, at most {volume.retentionCap} on your plan.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y rounded-md border" aria-label="Datasets">
              {datasets.map((d) => (
                <li key={d.id} className="flex flex-wrap items-center justify-between gap-3 p-3 text-sm">
                  <span>
                    <span className="font-medium">{d.name}</span> <span className="text-muted-foreground">on {d.serverName}</span>
                  </span>
                  {canManage ? <RetentionForm dataset={d} cap={volume.retentionCap} /> : <span>{d.retentionDays} days</span>}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
