import { DomainError } from "~/services/platform/domain-error.server";
import { methodNotAllowed } from "~/http/api-response.server";
import { MISSING_UPLOAD_INFO } from "~/lib/upload-messages";
import { withSession } from "~/http/session-api.server";
import { recordPortalAudit } from "~/http/portal-audit.server";
import { storedFilesAudit } from "~/lib/audit-targets";
import { uploadResponseBody } from "~/services/files/file-views.server";
import { handleResumableUpload } from "~/http/resumable-upload.server";
import { findServerForTeam } from "~/services/servers/servers.server";
import { portalSource, prepareUploadTarget } from "~/services/uploads/upload-targets.server";
import { loadUploadTarget } from "~/services/uploads/store-upload.server";
import type { Route } from "./+types/resumable-upload";
import { parseServerId } from "~/services/platform/ids.server";

/**
 * /api/portal/uploads/tus[/{id}]?server_id=…: the Upload page's resumable path for large files. The
 * session stands in for an API key, as on /api/portal/upload; tus and the pipeline do the rest.
 */
async function portalResumable({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  if (request.method === "GET") return methodNotAllowed("POST, HEAD, PATCH, DELETE", "Use the tus protocol");
  return withSession(request, context, async (auth) => {
    const serverId = new URL(request.url).searchParams.get("server_id")?.trim();
    if (!serverId) throw new DomainError("invalid_request", MISSING_UPLOAD_INFO);
    const server = await findServerForTeam(context.db, auth.team.id, parseServerId(serverId));
    if (!server) throw new DomainError("not_found", "Server not found");
    const target = request.method === "POST" ? await prepareUploadTarget(context, server.id, portalSource(auth.user.id)) : await loadUploadTarget(context.db, context.config.maxUploadBytes, server.id, portalSource(auth.user.id));
    const response = await handleResumableUpload(context, request, {
      target,
      answer: (files) => {
        void recordPortalAudit(context, auth, { action: "file.upload", serverId: server.id, ...storedFilesAudit(files) });
        return { success: true, status: "ok", error: false, ...uploadResponseBody(context.config.cdnBaseUrl, files) };
      },
    });
    const headers = new Headers(response.headers);
    headers.set("Cache-Control", "no-store");
    return new Response(response.body, { status: response.status, headers });
  }, { permission: "view_media" });
}

export const loader = portalResumable;
export const action = portalResumable;

