import { apiSuccess, methodNotAllowed } from "~/http/api-response.server";
import { withApiKey } from "~/http/api-route.server";
import { caseBody } from "~/http/case-answers.server";
import { readSmallBody } from "~/http/small-body.server";
import { addFilesToCase, openCase } from "~/services/files/evidence-cases.server";
import type { Route } from "./+types/cases";
import { parseIds } from "~/services/platform/ids.server";
import type { FileId } from "~/lib/ids";
import { caseTarget } from "~/lib/audit-targets";

/** POST /api/cases {number, title?, notes?, file_ids?}: opens an evidence case (or answers the open one) and files uploads into it. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST, OPTIONS", "Use POST to open a case");
  return withApiKey(context, request, { action: "case.open", permission: "upload" }, async (caller, audit) => {
    const body = await readSmallBody(request);
    const { evidenceCase, created } = await openCase(context.db, { serverId: caller.serverId, teamId: caller.teamId, body: { number: body.number, title: body.title, notes: body.notes } });
    const fileIds = Array.isArray(body.file_ids) ? parseIds<FileId>(body.file_ids) : [];
    audit.name(caseTarget(evidenceCase.number), fileIds.length ? { file_ids: fileIds } : {});
    const added = fileIds.length ? await addFilesToCase(context.db, evidenceCase, fileIds, { keyId: caller.keyId }) : 0;
    return apiSuccess({ ...caseBody(evidenceCase), added }, { status: created ? 201 : 200 });
  });
}

export function loader() {
  return methodNotAllowed("POST, OPTIONS", "Use POST to open a case");
}
