import { methodNotAllowed, apiSuccess } from "~/http/api-response.server";
import { handleUpload } from "~/http/upload-request.server";
import { keyedUploadTarget } from "~/services/uploads/upload-targets.server";
import { withApiKey } from "~/http/api-route.server";
import { uploadResponseBody } from "~/services/files/file-views.server";
import type { Route } from "./+types/upload";

export async function action({ request, context }: Route.ActionArgs) {
  return withApiKey(context, request, { action: "file.upload", permission: "upload" }, async (caller, audit) => {
    const target = await keyedUploadTarget(context, caller);
    const files = await handleUpload(context, request, target);
    audit.files(files);
    return apiSuccess(uploadResponseBody(context.config.cdnBaseUrl, files), { status: 201 });
  });
}

export function loader() {
  return methodNotAllowed("POST, OPTIONS", "Use POST to upload");
}
