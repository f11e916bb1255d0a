import { handleUpload } from "~/http/upload-request.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { methodNotAllowed, apiSuccess } from "~/http/api-response.server";
import { MISSING_UPLOAD_INFO } from "~/lib/upload-messages";
import { withSession } from "~/http/session-api.server";
import { recordPortalAudit } from "~/http/portal-audit.server";
import { storedFilesAudit } from "~/lib/audit-targets";
import { uploadResponseBody } from "~/services/files/file-views.server";
import { findServerForTeam } from "~/services/servers/servers.server";
import { portalSource, prepareUploadTarget } from "~/services/uploads/upload-targets.server";
import type { Route } from "./+types/upload";
import { parseServerId } from "~/services/platform/ids.server";

/**
 * POST /api/portal/upload?server_id=…: the Upload page's endpoint. The session stands in for an
 * API key; everything after that is the script API's pipeline and limits.
 */
export async function action({ request, context }: Route.ActionArgs) {
  return withSession(request, context, async (auth) => {
    const serverId = new URL(request.url).searchParams.get("server_id")?.trim();
    if (!serverId) throw new DomainError("invalid_request", MISSING_UPLOAD_INFO);
    const server = await findServerForTeam(context.db, auth.team.id, parseServerId(serverId));
    if (!server) throw new DomainError("not_found", "Server not found");
    const target = await prepareUploadTarget(context, server.id, portalSource(auth.user.id));
    try {
      const files = await handleUpload(context, request, target);
      await recordPortalAudit(context, auth, { action: "file.upload", serverId: server.id, ...storedFilesAudit(files) });
      return apiSuccess(uploadResponseBody(context.config.cdnBaseUrl, files), { status: 201 });
    } catch (error) {
      if (error instanceof DomainError && error.code === "missing_file") throw new DomainError("missing_file", MISSING_UPLOAD_INFO);
      throw error;
    }
  }, { permission: "view_media" });
}

export function loader() {
  return methodNotAllowed("POST", "Use POST to upload");
}
