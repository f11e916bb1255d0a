import { withoutHostHeaders } from "~/http/file-serving.server";
import { methodNotAllowed } from "~/http/api-response.server";
import { requireActiveServer } from "~/services/api-keys/key-auth.server";
import { withApiKey } from "~/http/api-route.server";
import { uploadResponseBody } from "~/services/files/file-views.server";
import { handleResumableUpload } from "~/http/resumable-upload.server";
import { keyedUploadTarget, keySource } from "~/services/uploads/upload-targets.server";
import { loadUploadTarget } from "~/services/uploads/store-upload.server";
import type { Route } from "./+types/resumable-upload";

/** Set by the host on every /api answer (cors.server.ts); tus's own copies would be duplicates. */

/**
 * /api/uploads/tus[/{id}]: resumable uploads (tus 1.0: creation, HEAD for the offset, PATCH to
 * continue, DELETE to give up) with the script API's key, types, sizes and quota. Creating an
 * upload spends the server's upload budget; continuing it does not.
 */
async function resumable({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  if (request.method === "GET") return methodNotAllowed("POST, HEAD, PATCH, DELETE, OPTIONS", "Use the tus protocol: POST to create, HEAD and PATCH to resume");
  return withApiKey(context, request, { action: "file.upload_resumable", permission: "upload" }, async (caller, audit) => {
    requireActiveServer(caller.serverStatus);
    const target = request.method === "POST" ? await keyedUploadTarget(context, caller) : await loadUploadTarget(context.db, context.config.maxUploadBytes, caller.serverId, keySource(caller));
    const response = await handleResumableUpload(context, request, {
      target,
      answer: (files) => {
        audit.files(files);
        return { success: true, status: "ok", error: false, ...uploadResponseBody(context.config.cdnBaseUrl, files) };
      },
    });
    const headers = withoutHostHeaders(response.headers);
    headers.set("Cache-Control", "no-store");
    return new Response(response.body, { status: response.status, headers });
  });
}

export const loader = resumable;
export const action = resumable;
