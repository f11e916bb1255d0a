import type { AppContext } from "~/services/app-context.server";
import { apiSuccess } from "~/http/api-response.server";
import { readImportRequest } from "~/http/import-request.server";
import { createImport, type ImportScope } from "~/services/imports/create-import.server";
import { parseImportFields } from "~/services/imports/import-input.server";
import { getImport, importReport, importUrlMap, type ImportView } from "~/services/imports/imports.server";
import { urlMapCsv } from "~/services/imports/rewrite-report.server";
import type { ImportId, TeamId } from "~/lib/ids";

/** Reads an import request, starts the import and removes the uploaded file from this machine, whatever happens. */
export async function startImportFromRequest(ctx: AppContext, request: Request, scope: ImportScope): Promise<ImportId> {
  const received = await readImportRequest(ctx, request);
  try {
    return await createImport(ctx, scope, parseImportFields(received.fields, received.file));
  } finally {
    await received.cleanup();
  }
}

/** The import, with its report once it has ended, as the API answers it. */
export async function importAnswer(ctx: AppContext, teamId: TeamId, id: ImportId | undefined, init: { status?: number } = {}): Promise<Response> {
  const view: ImportView = await getImport(ctx.db, teamId, id);
  const over = view.state === "finished" || view.state === "failed" || view.state === "cancelled";
  const links = { self: `/api/imports/${view.id}`, map_csv: `/api/imports/${view.id}/map.csv`, map_json: `/api/imports/${view.id}/map.json` };
  return apiSuccess({ import: view, links, ...(over ? { report: await importReport(ctx, teamId, view.id) } : {}) }, init);
}

/** The old → new link map as a CSV download or JSON. */
export async function urlMapAnswer(ctx: AppContext, teamId: TeamId, id: ImportId | undefined, format: "csv" | "json"): Promise<Response> {
  const rows = await importUrlMap(ctx, teamId, id);
  if (format === "json") return apiSuccess({ map: rows });
  return new Response(urlMapCsv(rows), {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="stash-import-${id}-map.csv"`, "Cache-Control": "no-store" },
  });
}
