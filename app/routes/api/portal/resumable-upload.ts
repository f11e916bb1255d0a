import { ApiError, apiError } from "~/lib/api-response";
import { MISSING_UPLOAD_INFO } from "~/lib/upload-messages";
import { runApi } from "~/http/api-route.server";
import { CROSS_SITE_MESSAGE, isSameOriginRequest } from "~/http/origin-check.server";
import { uploadResponseBody } from "~/services/files/file-views.server";
import { getOptionalUser } from "~/http/guards.server";
import { handleResumableUpload } from "~/services/uploads/resumable.server";
import { findServerForUser } from "~/services/servers/servers.server";
import { prepareUploadTarget } from "~/services/uploads/upload-targets.server";
import { loadUploadTarget } from "~/services/uploads/store-upload.server";
import type { Route } from "./+types/resumable-upload";

/**
 * /api/portal/uploads/tus[/{id}]?server_id=…: the Upload page's resumable path for large files. The
 * session stands in for an API key, as on /api/portal/upload; tus and the pipeline do the rest.
 */
async function portalResumable({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  if (request.method === "GET") return apiError(405, "method_not_allowed", "Use the tus protocol", {}, { Allow: "POST, HEAD, PATCH, DELETE" });
  return runApi(context, async () => {
    // /api is exempt from the host's origin check (scripts post there), so this cookie route checks itself.
    if (request.method !== "HEAD" && !isSameOriginRequest(request, context.config)) throw new ApiError(403, "permission_denied", CROSS_SITE_MESSAGE);
    const user = await getOptionalUser(request, context);
    if (!user) throw new ApiError(401, "not_authenticated", "Not authenticated");
    const serverId = new URL(request.url).searchParams.get("server_id")?.trim();
    if (!serverId) throw new ApiError(400, "invalid_request", MISSING_UPLOAD_INFO);
    const server = await findServerForUser(context.db, user.id, serverId);
    if (!server) throw new ApiError(404, "not_found", "Server not found");
    const target = request.method === "POST" ? await prepareUploadTarget(context, server.id) : await loadUploadTarget(context.db, context.config.maxUploadBytes, server.id);
    const response = await handleResumableUpload(context, request, {
      target,
      answer: (files) => ({ success: true, status: "ok", error: false, ...uploadResponseBody(context.config.cdnBaseUrl, files) }),
    });
    const headers = new Headers(response.headers);
    headers.set("Cache-Control", "no-store");
    return new Response(response.body, { status: response.status, headers });
  });
}

export const loader = portalResumable;
export const action = portalResumable;

