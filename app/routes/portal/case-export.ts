import { requireTeam } from "~/http/guards.server";
import { caseZipResponse } from "~/http/case-answers.server";
import { recordPortalAudit } from "~/http/portal-audit.server";
import { caseTarget } from "~/lib/audit-targets";
import { caseViewerOf, exportCase, findCaseForTeam } from "~/services/files/evidence-cases.server";
import type { Route } from "./+types/case-export";
import { parseId } from "~/services/platform/ids.server";
import type { CaseId } from "~/lib/ids";

/** GET /cases/{id}/export.zip: the owner's download of a case, the same zip the API gives. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = await requireTeam(request, context, "view_media");
  const found = await findCaseForTeam(context.db, auth.team.id, parseId<CaseId>(params.caseId), caseViewerOf(auth.user.id, auth.team.permissions));
  if (!found) throw new Response("Case not found", { status: 404 });
  const { stream } = await exportCase(context, found);
  await recordPortalAudit(context, auth, { action: "case.export", target: caseTarget(found.number), serverId: found.serverId });
  return caseZipResponse(found, stream, (error) => context.logger.warn({ err: error }, "case export ended early"));
}
