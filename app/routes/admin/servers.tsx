import { Eye, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { PageHeader } from "~/components/portal/page-header";
import { StatusBadge } from "~/components/servers/server-card";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import type { ActionResult } from "~/lib/action-result";
import { formatBytes, formatCount, formatDate } from "~/lib/format";
import { adminDeleteConfirm } from "~/lib/server-form";
import { pageTitle } from "~/lib/site";
import { listAllServers } from "~/services/stats/admin-stats.server";
import { requireUserWithRole } from "~/http/guards.server";
import { actionFail, actionOk } from "~/http/action-results.server";
import { deleteServerWithFiles } from "~/services/files/delete-files.server";
import type { Route } from "./+types/servers";
import { parseServerId } from "~/services/platform/ids.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("All Servers", matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserWithRole(request, context, "admin");
  return { servers: await listAllServers(context.db) };
}

/** The endpoint's host name, which is what an admin scans for; "None" when it is missing or not a URL. */
function endpointHost(url: string | null | undefined): string {
  try {
    return url ? new URL(url).hostname : "None";
  } catch {
    return "None";
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUserWithRole(request, context, "admin");
  const form = await request.formData();
  const serverId = parseServerId(form.get("serverId"));
  if (form.get("intent") !== "delete" || !serverId) return actionFail("Error deleting server", "Failed to delete server.", 400);
  try {
    const deleted = await deleteServerWithFiles(context.db, context.blobs, serverId, {
      onBlobError: (key, err) => context.logger.warn({ err, key }, "blob delete failed after server delete"),
    });
    if (!deleted) return actionFail("Error deleting server", "Server not found", 404);
    context.logger.info({ adminId: user.id, serverId, files: deleted.filesDeleted, bytes: deleted.bytesReleased }, "admin deleted server");
    return actionOk({
      type: "success",
      title: "Server deleted",
      description: `Server "${deleted.server.name}" and its ${formatCount(deleted.filesDeleted, "file")} were deleted; ${formatBytes(deleted.bytesReleased)} released.`,
    });
  } catch (error) {
    context.logger.error({ err: error }, "admin server delete failed");
    return actionFail("Error", "Failed to delete server.", 500);
  }
}

type Row = Route.ComponentProps["loaderData"]["servers"][number];

export default function AdminServers({ loaderData }: Route.ComponentProps) {
  const { servers } = loaderData;
  const fetcher = useFetcher<ActionResult>();
  const [pending, setPending] = useState<Row | null>(null);
  const deletingId = fetcher.state !== "idle" ? String(fetcher.formData?.get("serverId") ?? "") : null;

  return (
    <div className="space-y-6">
      <PageHeader title="All Servers" description={`${servers.length} server${servers.length === 1 ? "" : "s"} on the platform.`} />
      {servers.length === 0 ? (
        <Card>
          <CardContent className="py-10 text-center text-muted-foreground">No servers yet</CardContent>
        </Card>
      ) : (
        <ul className="grid gap-4" aria-label="All servers">
          {servers
            .filter((s) => s.id !== deletingId)
            .map((s) => (
              <li key={s.id}>
                <Card data-testid="admin-server-row">
                  <CardContent className="flex flex-col gap-4 p-4 md:flex-row md:items-center">
                    <div className="min-w-0 flex-1 space-y-2">
                      <div className="flex flex-wrap items-center gap-2">
                        <span className="text-lg font-semibold break-words">{s.name}</span>
                        <StatusBadge status={s.status} />
                      </div>
                      <p className="text-sm text-muted-foreground">Owner: {s.ownerEmail ?? "Unknown"}</p>
                      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
                        <div>
                          <dt className="text-muted-foreground">Max file size</dt>
                          <dd>{s.maxFileSizeMb} MB</dd>
                        </div>
                        <div>
                          <dt className="text-muted-foreground">Storage used</dt>
                          <dd>{formatBytes(s.usedBytes)}</dd>
                        </div>
                        <div>
                          <dt className="text-muted-foreground">Created</dt>
                          <dd>{formatDate(s.createdAt)}</dd>
                        </div>
                        <div>
                          <dt className="text-muted-foreground">Endpoint</dt>
                          <dd className="truncate">{endpointHost(s.endpointUrl)}</dd>
                        </div>
                      </dl>
                      <div className="flex flex-wrap gap-1" aria-label="File types">
                        {s.allowedFileTypes.map((t) => (
                          <Badge key={t} variant="outline" className="uppercase">
                            {t}
                          </Badge>
                        ))}
                      </div>
                    </div>
                    <div className="flex gap-2">
                      <Button asChild variant="outline" size="sm">
                        <Link to={`/admin/servers/${s.id}`}>
                          <Eye aria-hidden /> View Details
                        </Link>
                      </Button>
                      <Button variant="destructive" size="sm" onClick={() => setPending(s)} aria-label={`Delete ${s.name}`}>
                        <Trash2 aria-hidden /> Delete
                      </Button>
                    </div>
                  </CardContent>
                </Card>
              </li>
            ))}
        </ul>
      )}
      <AlertDialog open={pending !== null} onOpenChange={(open) => !open && setPending(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete server</AlertDialogTitle>
            <AlertDialogDescription>{pending ? adminDeleteConfirm(pending.name) : ""}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <Button
              variant="destructive"
              onClick={() => {
                if (pending) fetcher.submit({ intent: "delete", serverId: pending.id }, { method: "post" });
                setPending(null);
              }}
            >
              Delete
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
