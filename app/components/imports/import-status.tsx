import { useEffect } from "react";
import { Form, useRevalidator } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Progress } from "~/components/ui/progress";
import { CopyButton } from "~/components/portal/copy-button";
import { formatBytes, formatCount, formatDateTime } from "~/lib/format";
import { IMPORT_SOURCE_OPTIONS, IMPORT_STATE_LABELS, isImportActive } from "~/lib/import-sources";
import type { ImportReport, ImportView } from "~/services/imports/imports.server";

const REFRESH_MS = 1500;

/** Reloads the page's data while the import runs, so the bar and the counts move on their own. */
function useLiveProgress(active: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") void revalidator.revalidate();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [active, revalidator]);
}

function Count({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-md border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/** One import: its progress while it runs (live), then its report — what failed, the rewrite per phone table, the link map. */
export function ImportStatus({ view, report }: { view: ImportView; report: ImportReport | null }) {
  const active = isImportActive(view.state);
  useLiveProgress(active);
  const source = IMPORT_SOURCE_OPTIONS.find((o) => o.value === view.source)?.label ?? view.source;
  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-4 space-y-0">
        <div className="space-y-1">
          <CardTitle>
            {source} <Badge variant={view.state === "failed" ? "destructive" : active ? "secondary" : "outline"}>{IMPORT_STATE_LABELS[view.state] ?? view.state}</Badge>
          </CardTitle>
          <CardDescription>
            Started {formatDateTime(view.created_at)}
            {view.finished_at ? `, ended ${formatDateTime(view.finished_at)}` : ""}
          </CardDescription>
        </div>
        {active ? (
          <Form method="post">
            <input type="hidden" name="intent" value="cancel" />
            <input type="hidden" name="import_id" value={view.id} />
            <Button type="submit" variant="outline" size="sm">
              Cancel import
            </Button>
          </Form>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2">
          <div className="flex justify-between text-sm">
            <span>
              {view.progress.done} of {formatCount(view.progress.total, "file")}
            </span>
            <span className="tabular-nums">{view.progress.percent}%</span>
          </div>
          <Progress value={view.progress.percent} aria-label="Import progress" aria-valuetext={`${view.progress.percent}%`} />
        </div>
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-live="polite">
          <Count label="Stored" value={view.progress.stored} />
          <Count label="Already in Stash" value={view.progress.duplicates} />
          <Count label="Could not be brought" value={view.progress.failed} />
          <Count label="Size stored" value={formatBytes(view.stored_bytes)} />
        </dl>
        {view.log_entries ? <p className="text-sm text-muted-foreground">{formatCount(view.log_entries, "log entry", "log entries")} stored in the discord-import dataset.</p> : null}
        {view.error ? (
          <p className="rounded-md border border-destructive/50 p-3 text-sm text-destructive" role="alert">
            {view.error.message}
          </p>
        ) : null}
        {view.notes.map((note) => (
          <p key={note} className="rounded-md border p-3 text-sm">
            {note}
          </p>
        ))}
        {view.failures.length ? (
          <div className="grid gap-1">
            <h3 className="text-sm font-semibold">Not brought, by cause</h3>
            <ul className="text-sm">
              {view.failures.map((f) => (
                <li key={f.cause}>
                  {f.label}: {f.count}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {report ? <ImportReportView id={view.id} report={report} /> : null}
      </CardContent>
    </Card>
  );
}

function ImportReportView({ id, report }: { id: string; report: ImportReport }) {
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <a href={`/import/${id}/map.csv`} download>
            Download link map (CSV)
          </a>
        </Button>
      </div>
      <div className="grid gap-3">
        <h3 className="text-sm font-semibold">Fix your game database</h3>
        <p className="text-sm text-muted-foreground">
          Every rescued Discord file answers at its old path under /dc/ on your CDN address. Run the statement for your phone script in its database (back it up first); it
          changes only Discord attachment links, and only where the new link fits the column. The Stash FiveM resource can do this for you: <code>stash_import_scan</code>.
        </p>
        {report.rewrite.map((r) => (
          <div key={r.table} className="grid gap-2">
            <div className="flex items-center justify-between gap-2">
              <span className="text-sm font-medium">
                {r.label} — {r.table}.{r.column}
              </span>
              <CopyButton text={r.sql} label={`Copy ${r.label} statement`} />
            </div>
            <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs">{r.sql}</pre>
            {r.too_long ? (
              <p className="text-sm text-destructive" role="alert">
                {formatCount(r.too_long, "link")} would be longer than the column's {r.max_length} characters and stay as they are; use a shorter CDN address.
              </p>
            ) : (
              <p className="text-sm text-muted-foreground">Every rescued link fits ({r.longest || 0} of {r.max_length} characters at most).</p>
            )}
          </div>
        ))}
      </div>
      {report.failed_items.length ? (
        <div className="grid gap-2">
          <h3 className="text-sm font-semibold">Files that could not be brought{report.failed_items_total > report.failed_items.length ? ` (first ${report.failed_items.length} of ${report.failed_items_total})` : ""}</h3>
          <ul className="grid gap-1 text-sm">
            {report.failed_items.map((item, index) => (
              <li key={`${item.url}-${index}`} className="break-all">
                <span className="font-medium">{item.reason}</span>: {item.url}
                {item.detail ? <span className="text-muted-foreground"> — {item.detail}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
