import { apiError, apiSuccess } from "~/http/api-response.server";
import { withApiKey } from "~/http/api-route.server";
import { findFileById } from "~/services/files/lookup.server";
import { createSignedFileUrl, SIGNED_URL_DEFAULT_S, SIGNED_URL_MAX_S, SIGNED_URL_MIN_S } from "~/services/files/private-access.server";
import type { Route } from "./+types/file-signed-url";
import { parseId } from "~/services/platform/ids.server";
import type { FileId } from "~/lib/ids";
import type { AnswerBody } from "~/lib/api-contract/registry";
import type { SignedUrlAnswer } from "~/lib/api-contract/files";

/**
 * GET or POST /api/files/{id}/signed-url[?expires_in=seconds]: a link that opens a private file
 * without a key until it expires, so an in-game UI (a phone gallery, an MDT) can show it.
 */
async function signedUrl({ request, params, context }: Route.LoaderArgs | Route.ActionArgs) {
  return withApiKey(context, request, { action: "file.sign_url", permission: "read", target: params.id }, async (caller, audit) => {
    const raw = new URL(request.url).searchParams.get("expires_in");
    const expiresIn = raw === null || raw === "" ? SIGNED_URL_DEFAULT_S : Number(raw);
    if (!Number.isInteger(expiresIn) || expiresIn < SIGNED_URL_MIN_S || expiresIn > SIGNED_URL_MAX_S) {
      return apiError("invalid_request", `expires_in must be a whole number of seconds from ${SIGNED_URL_MIN_S} to ${SIGNED_URL_MAX_S}`, {
        min_expires_in: SIGNED_URL_MIN_S,
        max_expires_in: SIGNED_URL_MAX_S,
      });
    }
    const fileId = parseId<FileId>(params.id);
    const file = fileId && (await findFileById(context.db, fileId));
    if (!file || file.server_id !== caller.serverId) return apiError("not_found", "File not found");
    audit.files([file]);
    const signed = await createSignedFileUrl(context.db, context.config.cdnBaseUrl, file, expiresIn);
    return apiSuccess({ id: file.id, ...signed, data: signed } satisfies AnswerBody<typeof SignedUrlAnswer>);
  });
}

export const loader = signedUrl;
export const action = signedUrl;
