import { DomainError } from "~/services/platform/domain-error.server";
import { methodNotAllowed, apiSuccess } from "~/http/api-response.server";
import { finishUpload, receiveUpload } from "~/http/upload-request.server";
import { runApi } from "~/http/api-route.server";
import { uploadResponseBody } from "~/services/files/file-views.server";
import { claimUploadGrant, releaseUploadGrant } from "~/services/uploads/upload-grants.server";
import { prepareUploadTarget } from "~/services/uploads/upload-targets.server";
import type { Route } from "./+types/upload-presigned";

export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST" && request.method !== "PUT") {
    return methodNotAllowed("POST, PUT, OPTIONS", "Use POST (multipart) or PUT (raw bytes)");
  }
  return runApi(context, async () => {
    const grant = await claimUploadGrant(context.db, params.token);
    if (!grant) throw new DomainError("invalid_upload_url", "This upload URL has expired or has already been used");
    try {
      const target = await prepareUploadTarget(context, grant.server_id, { via: "presigned", keyId: grant.api_key_id });
      const { category, filename, player_name, player_identifier, max_bytes } = grant.constraints;
      target.maxBytes = Math.min(target.maxBytes, max_bytes ?? target.maxBytes);
      target.forced = { category, filename, playerName: player_name, playerIdentifier: player_identifier };
      // The presign answer promised this file's URL: a WebP copy would change its name.
      if (filename) target.convertToWebp = false;
      const { uploads, fields } = await receiveUpload(context, request, target, { kind: request.method === "PUT" ? "raw" : "any", maxFiles: 1 });
      const files = await finishUpload(context, target, uploads, fields);
      return apiSuccess(uploadResponseBody(context.config.cdnBaseUrl, files), { status: 201 });
    } catch (error) {
      await releaseUploadGrant(context.db, grant.id);
      throw error;
    }
  });
}

export function loader() {
  return methodNotAllowed("POST, PUT, OPTIONS", "Use POST (multipart) or PUT (raw bytes)");
}
