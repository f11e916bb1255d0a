import { apiSuccess, methodNotAllowed } from "~/http/api-response.server";
import { withApiKey } from "~/http/api-route.server";
import { caseBody, caseZipResponse } from "~/http/case-answers.server";
import { readSmallBody } from "~/http/small-body.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { addFilesToCase, exportCase, findCase, listCaseFiles, setCaseStatus } from "~/services/files/evidence-cases.server";
import type { Route } from "./+types/case";
import { parseIds } from "~/services/platform/ids.server";
import type { FileId } from "~/lib/ids";
import { caseTarget } from "~/lib/audit-targets";

const notFound = () => new DomainError("not_found", "Case not found");

/** GET /api/cases/{number}: the case and its files; GET /api/cases/{number}/export: the signed zip. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const exporting = params.action === "export";
  if (params.action && !exporting) return methodNotAllowed("POST, OPTIONS", "Use POST");
  return withApiKey(context, request, { action: exporting ? "case.export" : "case.read", permission: "read", target: caseTarget(params.number) }, async (caller) => {
    const evidenceCase = await findCase(context.db, caller.serverId, params.number);
    if (!evidenceCase) throw notFound();
    if (exporting) {
      const { stream } = await exportCase(context, evidenceCase);
      return caseZipResponse(evidenceCase, stream, (error) => context.logger.warn({ err: error }, "case export ended early"));
    }
    return apiSuccess(caseBody(evidenceCase, { files: await listCaseFiles(context.db, context.config.cdnBaseUrl, evidenceCase) }));
  });
}

/** What each POST on a case records on the audit trail. */
const CASE_ACTIONS = { files: "case.files", close: "case.close", reopen: "case.reopen" } as const;

/** POST /api/cases/{number}/files {file_ids}, /close, /reopen. Closing and reopening need delete permission: they decide whether evidence may go. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const kind = params.action;
  if (request.method !== "POST" || !kind || !Object.hasOwn(CASE_ACTIONS, kind)) return methodNotAllowed("GET, POST, OPTIONS", "Use POST on /files, /close or /reopen");
  const action = CASE_ACTIONS[kind as keyof typeof CASE_ACTIONS];
  return withApiKey(context, request, { action, permission: kind === "files" ? "upload" : "delete", target: caseTarget(params.number) }, async (caller, audit) => {
    const evidenceCase = await findCase(context.db, caller.serverId, params.number);
    if (!evidenceCase) throw notFound();
    if (kind === "files") {
      const body = await readSmallBody(request);
      const requested: unknown[] = Array.isArray(body.file_ids) ? body.file_ids : [];
      if (requested.length === 0) throw new DomainError("invalid_request", "file_ids must list the files to add");
      const fileIds = parseIds<FileId>(requested);
      audit.name(caseTarget(evidenceCase.number), { file_ids: fileIds });
      const added = await addFilesToCase(context.db, evidenceCase, fileIds, { keyId: caller.keyId });
      return apiSuccess({ ...caseBody(evidenceCase), added });
    }
    const changed = await setCaseStatus(context.db, caller.serverId, evidenceCase.number, kind === "close" ? "closed" : "open");
    return apiSuccess(caseBody(changed!));
  });
}
