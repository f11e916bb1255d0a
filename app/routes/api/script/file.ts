import { apiError, methodNotAllowed, apiSuccess } from "~/http/api-response.server";
import { runApi, withApiKey } from "~/http/api-route.server";
import { deleteServerFile } from "~/services/files/delete-files.server";
import { fileMetadataResponse } from "~/http/file-downloads.server";
import type { Route } from "./+types/file";
import { parseId } from "~/services/platform/ids.server";
import type { FileId } from "~/lib/ids";
import type { AnswerBody } from "~/lib/api-contract/registry";
import type { DeleteSuccess } from "~/lib/api-contract/schemas";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return runApi(context, () =>
    fileMetadataResponse(context, { headers: request.headers, query: new URL(request.url).searchParams, ip: context.clientIp }, params.id),
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "DELETE") {
    return methodNotAllowed("GET, HEAD, DELETE, OPTIONS", "Use GET for metadata or DELETE to delete");
  }
  return withApiKey(context, request, { action: "file.delete", permission: "delete", target: params.id }, async (caller, audit) => {
    const fileId = parseId<FileId>(params.id);
    const file = fileId && (await deleteServerFile(context, caller.serverId, fileId));
    if (!file) return apiError("not_found", "File not found");
    audit.files([file]);
    return apiSuccess({ deleted: true, id: file.id, freed_bytes: file.size_bytes } satisfies AnswerBody<typeof DeleteSuccess>);
  });
}
