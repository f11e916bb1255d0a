import { AlertTriangle, Download, HardDrive, RefreshCw, Search, Trash2, Upload } from "lucide-react";
import { useState } from "react";
import { Form, Link, useFetcher, useNavigation, useRevalidator } from "react-router";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Progress } from "~/components/ui/progress";
import { Skeleton } from "~/components/ui/skeleton";
import { startDownload } from "~/lib/file-actions";
import { categoryLabel } from "~/lib/categories";
import { barPercent, formatBytes, formatCount, formatDate, formatPercent } from "~/lib/format";
import { MediaThumb } from "~/components/media/media-thumb";
import { GALLERY_SORT_LABELS } from "~/components/media/gallery-view";
import { useTeamPermission } from "~/components/teams/use-team-permission";

interface StorageFile {
  id: string;
  originalFilename: string;
  mimeType: string;
  sizeBytes: number;
  playerName: string | null;
  serverName: string;
  category: string;
  thumbhash: string | null;
  createdAt: string;
}

interface UsageSlice {
  key: string;
  label: string;
  bytes: number;
  files: number;
}

export interface StorageViewProps {
  q: string;
  sort: string;
  breakdown: { byServer: UsageSlice[]; byCategory: UsageSlice[] };
  cursor: string | null;
  nextCursor: string | null;
  summary: { usedBytes: number; quotaBytes: number; remainingBytes: number; percentUsed: number; low: boolean; fileCount: number };
  files: StorageFile[];
}

export function StorageView({ q, sort, cursor, nextCursor, summary, files, breakdown }: StorageViewProps) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const refreshing = revalidator.state === "loading";
  const searching = navigation.state === "loading" && navigation.location?.pathname === "/storage";
  return (
    <section className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-2xl font-bold tracking-tight">Storage Manager</h1>
          <p className="text-muted-foreground">See what uses your storage and free up space.</p>
        </div>
        <Button variant="outline" onClick={() => revalidator.revalidate()} disabled={refreshing}>
          <RefreshCw className={refreshing ? "animate-spin" : undefined} aria-hidden />
          Refresh
        </Button>
      </header>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-lg">
            <HardDrive className="h-5 w-5" aria-hidden />
            Storage Overview
          </CardTitle>
          <CardDescription>
            {summary.fileCount} {summary.fileCount === 1 ? "file" : "files"} across your servers
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {refreshing ? (
            <Skeleton className="h-16 w-full" />
          ) : (
            <>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="text-2xl font-semibold" data-testid="storage-used">
                  {formatBytes(summary.usedBytes)} <span className="text-base font-normal text-muted-foreground">/ {formatBytes(summary.quotaBytes)}</span>
                </p>
                <p className="text-sm text-muted-foreground">{`${formatPercent(summary.percentUsed)} used`}</p>
              </div>
              <Progress value={barPercent(summary.percentUsed)} aria-label="Storage used" />
              <p className="text-sm text-muted-foreground">{`${formatBytes(summary.remainingBytes)} remaining`}</p>
            </>
          )}
          {summary.low ? (
            <div role="alert" className="flex items-start gap-2 rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm">
              <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0 text-destructive" aria-hidden />
              <p>
                You're running low on storage. Delete files you no longer need or{" "}
                <Link to="/billing" className="underline underline-offset-4">
                  upgrade your plan
                </Link>
                .
              </p>
            </div>
          ) : null}
        </CardContent>
      </Card>

      {breakdown.byServer.length ? (
        <div className="grid gap-6 md:grid-cols-2">
          <UsageBars title="By server" slices={breakdown.byServer} total={summary.usedBytes} />
          <UsageBars title="By category" slices={breakdown.byCategory} total={summary.usedBytes} />
        </div>
      ) : null}

      <Card>
        <CardHeader className="gap-3">
          <CardTitle className="text-lg">Files</CardTitle>
          <Form method="get" role="search" className="flex flex-wrap gap-2">
            <Label htmlFor="storage-search" className="sr-only">
              Search files
            </Label>
            <div className="relative flex-1">
              <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
              <Input id="storage-search" name="q" type="search" defaultValue={q} placeholder="Search by name or player" className="pl-9" />
            </div>
            <Label htmlFor="storage-sort" className="sr-only">
              Sort
            </Label>
            <select
              id="storage-sort"
              name="sort"
              defaultValue={sort}
              onChange={(event) => event.currentTarget.form?.requestSubmit()}
              className="flex h-10 rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {Object.entries(GALLERY_SORT_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </Form>
        </CardHeader>
        <CardContent>
          {searching ? (
            <div className="space-y-2" aria-busy="true" aria-label="Loading files">
              {Array.from({ length: 5 }, (_, i) => (
                <Skeleton key={i} className="h-14 w-full" />
              ))}
            </div>
          ) : files.length === 0 ? (
            <div className="flex flex-col items-center gap-3 py-10 text-center">
              <p className="text-muted-foreground">{q ? "No files match your search" : "No files stored yet"}</p>
              <Button asChild>
                <Link to="/upload">
                  <Upload aria-hidden />
                  Upload files
                </Link>
              </Button>
            </div>
          ) : (
            <ul className="divide-y">
              {files.map((file) => (
                <StorageRow key={file.id} file={file} />
              ))}
            </ul>
          )}
          {cursor || nextCursor ? (
            <nav className="flex justify-between pt-4" aria-label="File pages">
              {cursor ? (
                <Button asChild variant="ghost" size="sm">
                  <Link to={`/storage?${new URLSearchParams({ q, sort })}`}>First page</Link>
                </Button>
              ) : (
                <span />
              )}
              {nextCursor ? (
                <Button asChild variant="outline" size="sm">
                  <Link to={`/storage?${new URLSearchParams({ q, sort, cursor: nextCursor })}`}>Next page</Link>
                </Button>
              ) : null}
            </nav>
          ) : null}
        </CardContent>
      </Card>
    </section>
  );
}

function StorageRow({ file }: { file: StorageFile }) {
  const canDelete = useTeamPermission("delete_media");
  const fetcher = useFetcher();
  const [confirming, setConfirming] = useState(false);
  const deleting = fetcher.state !== "idle";
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="storage-row" aria-busy={deleting}>
      <div className="flex min-w-0 items-center gap-3">
        <MediaThumb id={file.id} mimeType={file.mimeType} alt="" thumbhash={file.thumbhash} className="size-12 shrink-0 rounded object-cover" />
        <div className="min-w-0">
          <Link to={`/gallery/${file.id}`} className="block truncate font-medium hover:underline" title={file.originalFilename}>
            {file.originalFilename}
          </Link>
          <p className="text-xs text-muted-foreground">
            {[formatBytes(file.sizeBytes), file.serverName, categoryLabel(file.category), file.playerName, formatDate(file.createdAt)].filter(Boolean).join(" · ")}
          </p>
        </div>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button variant="outline" size="sm" onClick={() => startDownload(file.id, file.originalFilename)} aria-label={`Download ${file.originalFilename}`}>
          <Download aria-hidden />
          Download
        </Button>
        {canDelete ? (
          <fetcher.Form method="post" action="/storage">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={file.id} />
            <Button
              type="submit"
              variant="destructive"
              size="sm"
              disabled={deleting}
              aria-label={`Delete ${file.originalFilename}`}
              onClick={(event) => {
                // With JavaScript the dialog confirms; without it the form posts directly.
                event.preventDefault();
                setConfirming(true);
              }}
            >
              <Trash2 aria-hidden />
              {deleting ? "Deleting…" : "Delete"}
            </Button>
          </fetcher.Form>
        ) : null}
      </div>
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete this file?</AlertDialogTitle>
            <AlertDialogDescription>
              "{file.originalFilename}" ({formatBytes(file.sizeBytes)}) will be permanently deleted and its storage released. This action cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className="bg-destructive text-destructive-foreground hover:bg-destructive/90"
              onClick={() => fetcher.submit({ intent: "delete", id: file.id }, { method: "post", action: "/storage" })}
            >
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </li>
  );
}

/** A share of the used space per server or category, as labelled bars (largest first). */
function UsageBars({ title, slices, total }: { title: string; slices: UsageSlice[]; total: number }) {
  const shown = slices.slice(0, 8);
  const rest = slices.slice(8);
  const rows = rest.length
    ? [...shown, { key: "_rest", label: `${rest.length} more`, bytes: rest.reduce((n, s) => n + s.bytes, 0), files: rest.reduce((n, s) => n + s.files, 0) }]
    : shown;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="space-y-3" aria-label={`Storage used ${title.toLowerCase()}`}>
          {rows.map((slice) => {
            const share = total > 0 ? (slice.bytes / total) * 100 : 0;
            return (
              <li key={slice.key} className="space-y-1" data-testid="usage-slice">
                <div className="flex items-baseline justify-between gap-2 text-sm">
                  <span className="truncate font-medium">{slice.label}</span>
                  <span className="shrink-0 tabular-nums text-muted-foreground">{`${formatBytes(slice.bytes)} · ${formatCount(slice.files, "file")}`}</span>
                </div>
                <div className="h-2 rounded-full bg-muted" aria-hidden>
                  <div className="h-2 rounded-full bg-primary" style={{ width: `${Math.max(share, slice.bytes > 0 ? 1 : 0)}%` }} />
                </div>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
