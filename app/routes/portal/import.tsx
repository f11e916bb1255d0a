import { PageHeader } from "~/components/portal/page-header";
import { ImportForm } from "~/components/imports/import-form";
import { ImportStatus } from "~/components/imports/import-status";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { IMPORT_SOURCE_OPTIONS, IMPORT_STATE_LABELS } from "~/lib/import-sources";
import { formatDateTime } from "~/lib/format";
import { pageTitle } from "~/lib/site";
import { actionFail, actionOk } from "~/http/action-results.server";
import { requireTeam } from "~/http/guards.server";
import { recordPortalAudit } from "~/http/portal-audit.server";
import { readImportRequest } from "~/http/import-request.server";
import { createImport } from "~/services/imports/create-import.server";
import { parseImportFields } from "~/services/imports/import-input.server";
import { cancelImport, importReport, listImports } from "~/services/imports/imports.server";
import { findServerForTeam, listServersForTeam } from "~/services/servers/servers.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { parseId, parseServerId } from "~/services/platform/ids.server";
import type { ImportId } from "~/lib/ids";
import type { Route } from "./+types/import";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Import", matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context, "manage_servers");
  const [servers, imports] = await Promise.all([listServersForTeam(context.db, team.id), listImports(context.db, team.id, 10)]);
  const wanted = new URL(request.url).searchParams.get("id");
  const current = imports.find((i) => i.id === wanted) ?? imports[0] ?? null;
  const over = current && (current.state === "finished" || current.state === "failed" || current.state === "cancelled");
  return {
    servers: servers.filter((s) => s.status === "active").map((s) => ({ id: s.id, name: s.name })),
    imports,
    current,
    report: over ? await importReport(context, team.id, current.id) : null,
    maxArchiveMb: context.config.IMPORT_MAX_ARCHIVE_MB,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const auth = await requireTeam(request, context, "manage_servers");
  let received;
  try {
    received = await readImportRequest(context, request);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return actionFail("Import not started", error.message, 400, { file: error.message });
  }
  try {
    const { fields } = received;
    if (fields.intent === "cancel") {
      const cancelled = await cancelImport(context, auth.team.id, parseId<ImportId>(fields.import_id));
      await recordPortalAudit(context, auth, { action: "import.cancel", target: `Import ${cancelled.id}`, serverId: null });
      return actionOk({ type: "success", title: "Import cancelled", description: "Files already imported are kept." });
    }
    const server = await findServerForTeam(context.db, auth.team.id, parseServerId(fields.server_id));
    if (!server) return actionFail("Import not started", "Choose one of your servers.", 400, { server_id: "Choose one of your servers." });
    const id = await createImport(context, { teamId: auth.team.id, serverId: server.id, userId: auth.user.id }, parseImportFields(fields, received.file));
    await recordPortalAudit(context, auth, { action: "import.create", target: `Import ${id}`, serverId: server.id, detail: { source: fields.source } });
    return actionOk({ type: "success", title: "Import started", description: "Its progress shows below; you can leave this page." });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const field = typeof error.details.field === "string" ? error.details.field : error.code === "invalid_export" || error.code === "unsafe_archive" || error.code === "missing_file" ? "file" : error.code === "url_not_allowed" ? "urls" : undefined;
    const status = error.code === "import_in_progress" ? 409 : 400;
    return actionFail("Import not started", error.message, status, field ? { [field]: error.message } : undefined);
  } finally {
    await received.cleanup();
  }
}

export default function ImportPage({ loaderData }: Route.ComponentProps) {
  const { servers, imports, current, report, maxArchiveMb } = loaderData;
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Import"
        description="Bring your history: rescue expired Discord links and copy your files from Fivemanage, Zipline or a folder. Guide: Documentation → Moving to Stash."
      />
      {current ? <ImportStatus view={current} report={report} /> : null}
      <ImportForm servers={servers} maxArchiveMb={maxArchiveMb} />
      {imports.length > 1 ? (
        <Card>
          <CardHeader>
            <CardTitle>Earlier imports</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-1 text-sm">
              {imports.map((i) => (
                <li key={i.id}>
                  <a className="underline underline-offset-4" href={`/import?id=${i.id}`}>
                    {IMPORT_SOURCE_OPTIONS.find((o) => o.value === i.source)?.label ?? i.source}, {formatDateTime(i.created_at)}
                  </a>{" "}
                  — {IMPORT_STATE_LABELS[i.state]}, {i.progress.stored} stored, {i.progress.failed} not brought
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
