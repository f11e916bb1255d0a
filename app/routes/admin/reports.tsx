import { Eye, EyeOff, Trash2, X } from "lucide-react";
import { useFetcher, type AppLoadContext } from "react-router";
import { PageHeader } from "~/components/portal/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { ActionResult } from "~/lib/action-result";
import { formatDateTime } from "~/lib/format";
import { pageTitle } from "~/lib/site";
import { requireUserWithRole } from "~/http/guards.server";
import { actionFail, actionOk } from "~/http/action-results.server";
import { deleteReportedFile, dismissReports, hideReportedFile, listReportedFiles, restoreReportedFile } from "~/services/files/file-reports.server";
import type { Route } from "./+types/reports";
import type { FileId, UserId } from "~/lib/ids";
import { parseId } from "~/services/platform/ids.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Reports", matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserWithRole(request, context, "admin");
  const files = await listReportedFiles(context.db, context.config.cdnBaseUrl);
  return { files: files.map((f) => ({ ...f, reports: f.reports.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) })) };
}

const OUTCOMES = {
  hide: { run: hideReportedFile, title: "File hidden", description: "Its links answer 451 until you restore it; the owner was told." },
  restore: { run: restoreReportedFile, title: "File restored", description: "Its links work again and the reports were dismissed." },
  dismiss: { run: (ctx: AppLoadContext, fileId: FileId, adminId: UserId) => dismissReports(ctx.db, fileId, adminId), title: "Reports dismissed", description: "The file stays available." },
} as const;

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUserWithRole(request, context, "admin");
  const form = await request.formData();
  const fileId = parseId<FileId>(form.get("fileId"));
  const intent = String(form.get("intent") ?? "");
  if (intent === "delete") {
    if (!fileId || !(await deleteReportedFile(context, fileId))) return actionFail("Error", "File not found", 404);
    context.logger.info({ adminId: user.id, fileId }, "admin deleted a reported file");
    return actionOk({ type: "success", title: "File deleted", description: "The file is gone and the owner was told." });
  }
  const outcome = OUTCOMES[intent as keyof typeof OUTCOMES];
  if (!outcome) return actionFail("Error", "Unknown action", 400);
  if (!fileId || !(await outcome.run(context, fileId, user.id))) return actionFail("Error", "File not found", 404);
  context.logger.info({ adminId: user.id, fileId, intent }, "admin moderated a reported file");
  return actionOk({ type: "success", title: outcome.title, description: outcome.description });
}

type ReportedFile = Route.ComponentProps["loaderData"]["files"][number];

export default function AdminReports({ loaderData }: Route.ComponentProps) {
  const { files } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader title="Reports" description="Files visitors reported. Hide one at once, then restore or delete it after review." />
      {files.length === 0 ? (
        <Card>
          <CardContent className="py-10 text-center text-muted-foreground">No reports waiting. Reports filed at /report appear here.</CardContent>
        </Card>
      ) : (
        <ul className="space-y-4" aria-label="Reported files">
          {files.map((file) => (
            <li key={file.fileId}>
              <ReportedFileCard file={file} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ReportedFileCard({ file }: { file: ReportedFile }) {
  const fetcher = useFetcher<ActionResult>();
  const busy = fetcher.state !== "idle";
  const act = (intent: string) => fetcher.submit({ intent, fileId: file.fileId }, { method: "post" });
  return (
    <Card data-testid="reported-file">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="min-w-0 space-y-1.5">
          <CardTitle className="flex flex-wrap items-center gap-2 break-all text-base">
            {file.originalFilename}
            {file.hidden ? <Badge variant="destructive">Hidden</Badge> : <Badge variant="outline">Live</Badge>}
          </CardTitle>
          <CardDescription className="break-all">
            {`${file.serverName} · ${file.ownerEmail ?? "Unknown owner"} · `}
            <a href={file.url} target="_blank" rel="noopener noreferrer" className="underline underline-offset-4">
              {file.url}
            </a>
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          {file.hidden ? (
            <Button size="sm" variant="outline" disabled={busy} onClick={() => act("restore")}>
              <Eye aria-hidden />
              Restore
            </Button>
          ) : (
            <>
              <Button size="sm" disabled={busy} onClick={() => act("hide")}>
                <EyeOff aria-hidden />
                Hide now
              </Button>
              <Button size="sm" variant="ghost" disabled={busy} onClick={() => act("dismiss")}>
                <X aria-hidden />
                Dismiss
              </Button>
            </>
          )}
          <Button size="sm" variant="destructive" disabled={busy} onClick={() => act("delete")}>
            <Trash2 aria-hidden />
            Delete file
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        <ul className="divide-y text-sm" aria-label={`Reports about ${file.originalFilename}`}>
          {file.reports.map((report) => (
            <li key={report.id} className="space-y-1 py-2">
              <p className="font-medium">{`${report.reason} · ${formatDateTime(report.createdAt)}${report.contact ? ` · ${report.contact}` : ""}`}</p>
              {report.details ? <p className="whitespace-pre-wrap text-muted-foreground">{report.details}</p> : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
