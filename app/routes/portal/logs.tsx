import { Download, Radio, ScrollText, X } from "lucide-react";
import { useState } from "react";
import { data, Form, Link, useFetcher, useLocation, useNavigation } from "react-router";
import { LogLine } from "~/components/logs/log-line";
import { useLiveTail } from "~/components/logs/use-live-tail";
import { NativeSelect } from "~/components/api-keys/native-select";
import { PageHeader } from "~/components/portal/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { ActionResult } from "~/lib/action-result";
import { LOG_LEVELS } from "~/lib/log-levels";
import { PLANS } from "~/lib/plans";
import { pageTitle } from "~/lib/site";
import { actionFail, actionOk } from "~/http/action-results.server";
import { requireTeam } from "~/http/guards.server";
import { refuseChange } from "~/http/refused-changes.server";
import { recordPortalAudit } from "~/http/portal-audit.server";
import { getAccountQuota } from "~/services/billing/quota.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { assertTeamDataset, listDatasetsForTeam, setDatasetRetention } from "~/services/logs/log-datasets.server";
import { logEntriesThisMonth } from "~/services/logs/log-volume.server";
import { deleteSavedLogQuery, listSavedLogQueries, saveLogQuery } from "~/services/logs/log-saved-queries.server";
import { createLogForward, deleteLogForward, hasLogForward, listLogForwards } from "~/services/logs/log-forwards.server";
import { createLogAlert, deleteLogAlert, hasLogAlert, listLogAlerts } from "~/services/logs/log-alerts.server";
import { parseDiscordWebhookUrl, parseLogRule } from "~/services/logs/log-rules.server";
import { ForwardsAndAlerts } from "~/components/logs/forwards-and-alerts";
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
  const canManage = team.permissions.includes("manage_servers");
  const [datasets, result, quota, used, saved, forwards, alerts] = await Promise.all([
    listDatasetsForTeam(context.db, team.id),
    searchLogs(context.db, { teamId: team.id }, filters, { before }),
    getAccountQuota(context.db, team.id),
    logEntriesThisMonth(context.db, team.id),
    listSavedLogQueries(context.db, team.id),
    canManage ? listLogForwards(context.db, team.id) : Promise.resolve([]),
    canManage ? listLogAlerts(context.db, team.id) : Promise.resolve([]),
  ]);
  return {
    cdnBaseUrl: context.config.cdnBaseUrl,
    query: Object.fromEntries(["dataset", "level", "resource", "q", "from", "to"].map((k) => [k, query.get(k) ?? ""])),
    metas: query.getAll("meta"),
    datasets,
    entries: result.entries.map((e) => ({ ...e, ts: e.ts.toISOString() })),
    next: result.next,
    volume: { used, limit: PLANS[quota.tier].logEntriesPerMonth, retentionCap: PLANS[quota.tier].logRetentionDays },
    canManage,
    saved,
    forwards,
    alerts: alerts.map((a) => ({ ...a, lastFiredAt: a.lastFiredAt?.toISOString() ?? null })),
  };
}

/** The settings the Logs page changes (they need "manage servers"), as the audit trail names each change. */
const LOG_SETTING_TARGETS = {
  retention: (form: FormData) => `dataset retention ${String(form.get("days") ?? "")} days`,
  "add-forward": () => "a forward to Discord",
  "delete-forward": () => "a forward removed",
  "add-alert": (form: FormData) => `alert ${String(form.get("name") ?? "")}`,
  "delete-alert": () => "an alert removed",
};

export async function action({ request, context }: Route.ActionArgs) {
  const auth = await requireTeam(request, context, "view_logs");
  const { user, team } = auth;
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "save-query") {
      await saveLogQuery(context.db, { teamId: team.id, userId: user.id, name: form.get("name"), search: String(form.get("search") ?? "") });
      return actionOk({ type: "success", title: "Search saved" });
    }
    if (intent === "delete-query") {
      if (!(await deleteSavedLogQuery(context.db, team.id, String(form.get("id") ?? "")))) return actionFail("Error", "That saved search is already gone.", 404);
      return actionOk({ type: "success", title: "Saved search removed" });
    }
    if (!Object.hasOwn(LOG_SETTING_TARGETS, intent)) return actionFail("Error", "Unknown action.", 400);
    const datasetId = String(form.get("datasetId") ?? "");
    // What the form names first: another team's dataset, forward or alert is the same 404 whatever the member may do.
    if (intent === "delete-forward" || intent === "delete-alert") {
      const id = String(form.get("id") ?? "");
      if (!(await (intent === "delete-forward" ? hasLogForward : hasLogAlert)(context.db, team.id, id))) return actionFail("Error", "It is already gone.", 404);
    } else {
      await assertTeamDataset(context.db, team.id, datasetId);
    }
    const what = LOG_SETTING_TARGETS[intent as keyof typeof LOG_SETTING_TARGETS](form);
    if (!team.permissions.includes("manage_servers")) return refuseChange(context, auth, { action: "logs.settings", target: what, permission: "manage_servers" });
    const rule = () => parseLogRule({ minLevel: form.get("minLevel"), resource: form.get("resource"), contains: form.get("contains") });
    const audit = () => recordPortalAudit(context, auth, { action: "logs.settings", target: what });
    if (intent === "add-forward") {
      await createLogForward(context.db, { teamId: team.id, datasetId, webhookUrl: parseDiscordWebhookUrl(form.get("webhookUrl"), context.config.DISCORD_API_BASE), rule: rule() });
      await audit();
      return actionOk({ type: "success", title: "Forward added", description: "Matching entries from now on go to that Discord channel." });
    }
    if (intent === "add-alert") {
      await createLogAlert(context.db, context.config.DISCORD_API_BASE, {
        teamId: team.id,
        datasetId,
        name: form.get("name"),
        kind: form.get("kind"),
        rule: rule(),
        threshold: form.get("threshold"),
        windowMinutes: form.get("windowMinutes"),
        cooldownMinutes: form.get("cooldownMinutes"),
        channel: form.get("channel"),
        target: form.get("target"),
      });
      await audit();
      return actionOk({ type: "success", title: "Alert added" });
    }
    if (intent === "delete-forward" || intent === "delete-alert") {
      const id = String(form.get("id") ?? "");
      const gone = intent === "delete-forward" ? await deleteLogForward(context.db, team.id, id) : await deleteLogAlert(context.db, team.id, id);
      if (!gone) return actionFail("Error", "It is already gone.", 404);
      await audit();
      return actionOk({ type: "success", title: intent === "delete-forward" ? "Forward removed" : "Alert removed" });
    }
    const quota = await getAccountQuota(context.db, team.id);
    const days = Number(form.get("days"));
    await setDatasetRetention(context.db, { datasetId, teamId: team.id, days, tier: quota.tier });
    await audit();
    return actionOk({ type: "success", title: "Retention updated" });
  } catch (error) {
    if (!isDomainError(error, "invalid_request", "not_found")) throw error;
    return actionFail("Error", error.message, error.code === "not_found" ? 404 : 400);
  }
}

function RetentionForm({ dataset, cap }: { dataset: { id: string; retentionDays: number }; cap: number }) {
  const fetcher = useFetcher<ActionResult>();
  return (
    <fetcher.Form method="post" className="flex items-center gap-2">
      <input type="hidden" name="intent" value="retention" />
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

function SaveSearch({ search }: { search: string }) {
  const fetcher = useFetcher<ActionResult>();
  if (!search) return null;
  return (
    <fetcher.Form method="post" className="flex items-center gap-2">
      <input type="hidden" name="intent" value="save-query" />
      <input type="hidden" name="search" value={search} />
      <Label htmlFor="save-search-name" className="sr-only">
        Name this search
      </Label>
      <Input id="save-search-name" name="name" required maxLength={60} placeholder="Name this search" className="h-9 w-44" />
      <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== "idle"}>
        Save search
      </Button>
    </fetcher.Form>
  );
}

function SavedSearches({ saved }: { saved: Array<{ id: string; name: string; query: string }> }) {
  const fetcher = useFetcher<ActionResult>();
  return (
    <nav aria-label="Saved searches" className="flex flex-wrap gap-2">
      {saved.map((s) => (
        <span key={s.id} className="inline-flex items-center gap-1 rounded-full border px-3 py-1 text-sm">
          <Link to={`/logs?${s.query}`} className="hover:underline">
            {s.name}
          </Link>
          <button
            type="button"
            className="rounded-full p-0.5 text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            aria-label={`Remove saved search ${s.name}`}
            onClick={() => fetcher.submit({ intent: "delete-query", id: s.id }, { method: "post" })}
          >
            <X className="size-3.5" aria-hidden />
          </button>
        </span>
      ))}
    </nav>
  );
}

export default function Logs({ loaderData }: Route.ComponentProps) {
  const { query, metas, datasets, entries, next, volume, canManage, cdnBaseUrl, saved, forwards, alerts } = loaderData;
  const busy = useNavigation().state === "loading";
  const location = useLocation();
  const filters = new URLSearchParams(location.search);
  filters.delete("cursor");
  const [tailing, setTailing] = useState(false);
  const live = useLiveTail(tailing, filters.toString());
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
              <Label htmlFor="log-from">From (UTC)</Label>
              <Input id="log-from" name="from" type="datetime-local" defaultValue={query.from} />
            </div>
            <div className="grid gap-1">
              <Label htmlFor="log-to">To (UTC)</Label>
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
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant={tailing ? "default" : "outline"} size="sm" aria-pressed={tailing} onClick={() => setTailing((v) => !v)}>
          <Radio aria-hidden /> {tailing ? "Stop live tail" : "Live tail"}
        </Button>
        <span className="text-xs text-muted-foreground" role="status" aria-live="polite">
          {tailing ? (live.connected ? `Live: ${live.entries.length} new` : "Connecting…") : ""}
        </span>
        <Button asChild variant="outline" size="sm">
          <a href={`/logs/export?${new URLSearchParams([...filters, ["format", "csv"]])}`} download>
            <Download aria-hidden /> CSV
          </a>
        </Button>
        <Button asChild variant="outline" size="sm">
          <a href={`/logs/export?${new URLSearchParams([...filters, ["format", "ndjson"]])}`} download>
            <Download aria-hidden /> NDJSON
          </a>
        </Button>
        <SaveSearch search={filters.toString()} />
      </div>
      {saved.length ? <SavedSearches saved={saved} /> : null}
      {entries.length === 0 && live.entries.length === 0 ? (
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
          {live.entries.map((entry) => (
            <LogLine key={`live-${entry.id}`} entry={entry} cdnBaseUrl={cdnBaseUrl} fresh />
          ))}
          {entries.map((entry) => (
            <LogLine key={entry.id} entry={entry} cdnBaseUrl={cdnBaseUrl} />
          ))}
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
      {canManage && datasets.length ? <ForwardsAndAlerts datasets={datasets} forwards={forwards} alerts={alerts} /> : null}
    </div>
  );
}
