import { ArrowLeft, Copy, Download, ExternalLink, FileText, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link, useFetcher } from "react-router";
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
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/api-keys/native-select";
import { Label } from "~/components/ui/label";
import type { ActionResult } from "~/lib/action-result";
import { categoryLabel } from "~/lib/categories";
import { copyText, mediaUrl, startDownload } from "~/lib/file-actions";
import { formatBytes, formatDateTime, formatDuration } from "~/lib/format";
import { mediaKind } from "~/lib/media-kind";
import { useTeamPermission } from "~/components/teams/use-team-permission";

export interface FileDetailData {
  id: string;
  serverId: string;
  serverName: string;
  originalFilename: string;
  filename: string;
  category: string;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  isPublic: boolean;
  hidden: boolean;
  playerName: string | null;
  playerIdentifier: string | null;
  metadata: [string, string][];
  createdAt: string;
  uploadedBy: string;
  expiresAt: string | null;
  shareUrl: string;
  /** Ready-made transform addresses of a public image (label, URL). */
  transforms: [string, string][];
  categories: string[];
  keepForever: boolean;
  /** The plan keeps files (paid), so a file may be exempted from retention rules. */
  canKeepForever: boolean;
  shares: { url: string; token: string; expiresAt: string | null; hasPassword: boolean; maxViews: number | null; views: number }[];
  /** Where the MP4 copy of a video stands; null for files that get none. */
  mp4Copy: { state: "ready"; sizeBytes: number } | { state: "queued" } | { state: "failed"; reason: string } | { state: "on_request" } | null;
  /** Evidence cases holding the file, and open cases of its server it could join. */
  cases: { number: string; status: string }[];
  openCases: { id: string; label: string }[];
}

const VIA_LABEL = { api: "API key", portal: "The portal's Upload page", webhook: "Discord-style webhook", presigned: "Presigned upload link", import: "An import (Import page, API or CLI)" } as const;

export function uploadedByLabel(via: keyof typeof VIA_LABEL, keyName: string | null): string {
  if (via === "portal" || via === "webhook" || via === "import") return VIA_LABEL[via];
  return keyName ? `${VIA_LABEL[via]} "${keyName}"` : `${VIA_LABEL[via]} (since deleted)`;
}

function mp4CopyLabel(copy: NonNullable<FileDetailData["mp4Copy"]>): string {
  switch (copy.state) {
    case "ready":
      return `Ready (${formatBytes(copy.sizeBytes)}), played by Safari, iPhones and Discord`;
    case "queued":
      return "Being made";
    case "failed":
      return `Not made: ${copy.reason}`;
    case "on_request":
      return "Made when first asked for (?format=mp4)";
  }
}

/** One file, everything known about it, and what an owner can do with it. */
export function FileDetailView({ file }: { file: FileDetailData }) {
  const canEdit = useTeamPermission("delete_media");
  const kind = mediaKind(file.mimeType);
  const rows: [string, React.ReactNode][] = [
    ["Original name", file.originalFilename],
    ["Stored name", <code key="n" className="break-all text-xs">{file.filename}</code>],
    ["Type", file.mimeType],
    ["Size", formatBytes(file.sizeBytes)],
    ...(file.width && file.height ? [["Dimensions", `${file.width} × ${file.height} px`] as [string, string]] : []),
    ...(file.durationMs !== null ? [["Duration", formatDuration(file.durationMs)] as [string, string]] : []),
    ...(file.mp4Copy ? [["MP4 copy", <span key="m" data-testid="mp4-copy">{mp4CopyLabel(file.mp4Copy)}</span>] as [string, React.ReactNode]] : []),
    ["Server", <Link key="s" className="underline underline-offset-4" to={`/servers/${file.serverId}`}>{file.serverName}</Link>],
    ["Category", categoryLabel(file.category)],
    ["Visibility", file.isPublic ? "Public" : "Private"],
    ["Player", file.playerName ?? "—"],
    ["Player identifier", file.playerIdentifier ? <code key="p" className="break-all text-xs">{file.playerIdentifier}</code> : "—"],
    ["Uploaded", formatDateTime(file.createdAt)],
    ["Uploaded by", file.uploadedBy],
    ["Expires", file.expiresAt ? formatDateTime(file.expiresAt) : file.keepForever ? "Never: kept forever" : "Never: kept until you delete it"],
    ["SHA-256", <code key="h" className="break-all text-xs">{file.sha256}</code>],
  ];
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <Button asChild variant="ghost" size="sm">
          <Link to="/gallery">
            <ArrowLeft aria-hidden />
            Media Gallery
          </Link>
        </Button>
      </div>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h1 className="break-all text-2xl font-bold tracking-tight">{file.originalFilename}</h1>
          <div className="flex flex-wrap gap-2">
            <Badge variant="secondary">{categoryLabel(file.category)}</Badge>
            <Badge variant={file.isPublic ? "success" : "outline"}>{file.isPublic ? "Public" : "Private"}</Badge>
            {file.hidden ? <Badge variant="destructive">Hidden after a report</Badge> : null}
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => copyText(file.shareUrl)}>
            <Copy aria-hidden />
            Copy URL
          </Button>
          <Button onClick={() => startDownload(file.id, file.originalFilename)}>
            <Download aria-hidden />
            Download
          </Button>
        </div>
      </header>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-6">
          <Card className="overflow-hidden">
            <div className="flex min-h-48 items-center justify-center bg-black/40">
              {kind === "image" ? <img src={mediaUrl(file.id)} alt={file.originalFilename} className="max-h-[70vh] w-auto object-contain" /> : null}
              {kind === "video" ? <video src={mediaUrl(file.id)} controls className="max-h-[70vh] w-full" aria-label={file.originalFilename} /> : null}
              {kind === "audio" ? <audio src={mediaUrl(file.id)} controls className="w-full p-6" aria-label={file.originalFilename} /> : null}
              {kind === "document" ? (
                <div className="flex flex-col items-center gap-2 p-10 text-muted-foreground">
                  <FileText className="size-12" aria-hidden />
                  <span>No preview for this file type</span>
                </div>
              ) : null}
            </div>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Metadata</CardTitle>
            </CardHeader>
            <CardContent>
              {file.metadata.length === 0 ? (
                <p className="text-sm text-muted-foreground">The script sent no metadata with this file.</p>
              ) : (
                <table className="w-full text-sm" aria-label="Metadata">
                  <tbody className="divide-y">
                    {file.metadata.map(([key, value]) => (
                      <tr key={key}>
                        <th scope="row" className="w-1/3 py-2 pr-3 text-left align-top font-medium">
                          {key}
                        </th>
                        <td className="break-all py-2 font-mono text-xs">{value}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </CardContent>
          </Card>
        </div>
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>Details</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm" data-testid="file-details">
                {rows.map(([label, value]) => (
                  <div key={label} className="contents">
                    <dt className="text-muted-foreground">{label}</dt>
                    <dd className="min-w-0 break-words font-medium">{value}</dd>
                  </div>
                ))}
              </dl>
            </CardContent>
          </Card>
          <FileControls file={file} />
          {canEdit ? <ShareLinks file={file} /> : null}
          {file.transforms.length ? (
            <Card>
              <CardHeader>
                <CardTitle>Links</CardTitle>
              </CardHeader>
              <CardContent>
                <ul className="space-y-2 text-sm">
                  {file.transforms.map(([label, url]) => (
                    <li key={label} className="flex items-center justify-between gap-2">
                      <span>{label}</span>
                      <span className="flex gap-1">
                        <Button asChild variant="ghost" size="icon" aria-label={`Open ${label}`}>
                          <a href={url} target="_blank" rel="noopener noreferrer">
                            <ExternalLink aria-hidden />
                          </a>
                        </Button>
                        <Button variant="ghost" size="icon" aria-label={`Copy ${label} URL`} onClick={() => copyText(url)}>
                          <Copy aria-hidden />
                        </Button>
                      </span>
                    </li>
                  ))}
                </ul>
              </CardContent>
            </Card>
          ) : null}
        </div>
      </div>
    </section>
  );
}

function FileControls({ file }: { file: FileDetailData }) {
  const visibility = useFetcher<ActionResult>();
  const category = useFetcher<ActionResult>();
  const remover = useFetcher<ActionResult>();
  const [confirming, setConfirming] = useState(false);
  const canEdit = useTeamPermission("delete_media");
  const categoryError = category.data && !category.data.ok ? category.data.error : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Manage</CardTitle>
      </CardHeader>
      <CardContent className="space-y-5">
        {canEdit ? null : <p className="text-sm text-muted-foreground">Your role in this team can view this file but not change or delete it.</p>}
        {canEdit ? (
          <>
            <visibility.Form method="post" className="space-y-2">
              <input type="hidden" name="intent" value="visibility" />
              <input type="hidden" name="id" value={file.id} />
              <input type="hidden" name="visibility" value={file.isPublic ? "private" : "public"} />
              <p className="text-sm text-muted-foreground">
                {file.isPublic ? "Anyone with the link can open this file." : "Only you can open this file, signed in, or a script with a signed link."}
              </p>
              <Button type="submit" variant="outline" disabled={visibility.state !== "idle"}>
                {file.isPublic ? "Make private" : "Make public"}
              </Button>
            </visibility.Form>
            <category.Form method="post" className="space-y-2" noValidate>
              <input type="hidden" name="intent" value="category" />
              <input type="hidden" name="id" value={file.id} />
              <Label htmlFor="file-category">Category</Label>
              <div className="flex gap-2">
                <Input
                  id="file-category"
                  name="category"
                  list="file-category-options"
                  defaultValue={file.category}
                  maxLength={40}
                  required
                  aria-invalid={categoryError ? true : undefined}
                  aria-describedby="file-category-hint"
                />
                <datalist id="file-category-options">
                  {file.categories.map((c) => (
                    <option key={c} value={c} />
                  ))}
                </datalist>
                <Button type="submit" variant="outline" disabled={category.state !== "idle"}>
                  Move
                </Button>
              </div>
              <p id="file-category-hint" className={categoryError ? "text-sm text-destructive" : "text-xs text-muted-foreground"} role={categoryError ? "alert" : undefined}>
                {categoryError ?? "The category is part of the file's URL: moving it changes the link."}
              </p>
            </category.Form>
            <KeepForever file={file} />
          </>
        ) : null}
        <EvidenceCases file={file} />
        {canEdit ? (
          <div className="space-y-2 border-t pt-4">
            <Button variant="destructive" onClick={() => setConfirming(true)} disabled={remover.state !== "idle"}>
              <Trash2 aria-hidden />
              {remover.state !== "idle" ? "Deleting…" : "Delete file"}
            </Button>
          </div>
        ) : null}
        <AlertDialog open={confirming} onOpenChange={setConfirming}>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Delete this file?</AlertDialogTitle>
              <AlertDialogDescription>{`${file.originalFilename} is removed for good and its links stop working.`}</AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction
                className="bg-destructive text-destructive-foreground hover:bg-destructive/90"
                onClick={() => remover.submit({ intent: "delete", id: file.id }, { method: "post" })}
              >
                Delete
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </CardContent>
    </Card>
  );
}

/** "Keep forever": retention rules skip the file. Paid plans only; the free plan's 30 days are its limit. */
function KeepForever({ file }: { file: FileDetailData }) {
  const fetcher = useFetcher<ActionResult>();
  return (
    <fetcher.Form method="post" className="space-y-2">
      <input type="hidden" name="intent" value="keepForever" />
      <input type="hidden" name="keep" value={file.keepForever ? "off" : "on"} />
      <p className="text-sm text-muted-foreground">
        {file.canKeepForever
          ? file.keepForever
            ? "Kept forever: your retention rules skip this file."
            : "Your server's retention rules may delete this file. Keep it forever to exempt it."
          : "On the free plan files are kept 30 days. Paid plans keep files and can exempt one from retention rules."}
      </p>
      <Button type="submit" variant="outline" disabled={!file.canKeepForever || fetcher.state !== "idle"}>
        {file.keepForever ? "Let retention rules apply" : "Keep forever"}
      </Button>
    </fetcher.Form>
  );
}

/** Files an evidence case keeps: listed, and one more open case to join. */
function EvidenceCases({ file }: { file: FileDetailData }) {
  const fetcher = useFetcher<ActionResult>();
  return (
    <fetcher.Form method="post" className="space-y-2">
      <input type="hidden" name="intent" value="addToCase" />
      {file.cases.length ? (
        <p className="text-sm" data-testid="file-cases">
          {`Evidence in case ${file.cases.map((c) => `${c.number}${c.status === "open" ? "" : " (closed)"}`).join(", ")}`}
        </p>
      ) : null}
      <Label htmlFor="file-case">Add to an evidence case</Label>
      <div className="flex gap-2">
        <NativeSelect id="file-case" name="caseId" disabled={file.openCases.length === 0} aria-describedby="file-case-hint">
          {file.openCases.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </NativeSelect>
        <Button type="submit" variant="outline" disabled={file.openCases.length === 0 || fetcher.state !== "idle"}>
          Add
        </Button>
      </div>
      <p id="file-case-hint" className="text-xs text-muted-foreground">
        {file.openCases.length ? "While its case is open the file is kept and cannot be deleted." : "No other open case on this server: open one on the Evidence Cases page."}
      </p>
    </fetcher.Form>
  );
}

const EXPIRY_CHOICES = [
  ["never", "Never"],
  ["1", "In 1 hour"],
  ["24", "In 1 day"],
  ["168", "In 7 days"],
  ["720", "In 30 days"],
] as const;

/** Links with limits: an expiry, a password, a number of views. Each works for private files too. */
function ShareLinks({ file }: { file: FileDetailData }) {
  const creator = useFetcher<ActionResult & { shareUrl?: string }>();
  const revoker = useFetcher<ActionResult>();
  const error = creator.data && !creator.data.ok ? creator.data.error : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Share links</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <creator.Form method="post" className="grid gap-3 sm:grid-cols-2" noValidate>
          <input type="hidden" name="intent" value="createShare" />
          <div className="space-y-1.5">
            <Label htmlFor="share-expiry">Expires</Label>
            <select id="share-expiry" name="expiresInHours" defaultValue="168" className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
              {EXPIRY_CHOICES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="share-max-views">View limit (optional)</Label>
            <Input id="share-max-views" name="maxViews" type="number" min={1} step={1} placeholder="Unlimited" />
          </div>
          <div className="space-y-1.5 sm:col-span-2">
            <Label htmlFor="share-password-new">Password (optional)</Label>
            <Input id="share-password-new" name="password" type="password" autoComplete="new-password" placeholder="At least 8 characters" aria-invalid={error ? true : undefined} aria-describedby={error ? "share-error" : undefined} />
          </div>
          {error ? (
            <p id="share-error" role="alert" className="text-sm text-destructive sm:col-span-2">
              {error}
            </p>
          ) : null}
          <div className="sm:col-span-2">
            <Button type="submit" variant="outline" disabled={creator.state !== "idle"}>
              Create share link
            </Button>
          </div>
        </creator.Form>
        {file.shares.length ? (
          <ul className="divide-y rounded-md border text-sm" aria-label="Share links">
            {file.shares.map((share) => (
              <li key={share.token} className="flex flex-wrap items-center justify-between gap-2 p-3" data-testid="share-link">
                <div className="min-w-0">
                  <code className="block truncate text-xs">{share.url}</code>
                  <span className="text-xs text-muted-foreground">
                    {[
                      share.expiresAt ? `Expires ${formatDateTime(share.expiresAt)}` : "Never expires",
                      share.maxViews ? `${share.views} of ${share.maxViews} views` : `${share.views} ${share.views === 1 ? "view" : "views"}`,
                      share.hasPassword ? "Password" : null,
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                  </span>
                </div>
                <span className="flex gap-1">
                  <Button variant="ghost" size="icon" aria-label="Copy share link" onClick={() => copyText(share.url)}>
                    <Copy aria-hidden />
                  </Button>
                  <Button variant="ghost" size="sm" disabled={revoker.state !== "idle"} onClick={() => revoker.submit({ intent: "revokeShare", token: share.token }, { method: "post" })}>
                    Revoke
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No share links yet. They work for private files too.</p>
        )}
      </CardContent>
    </Card>
  );
}
