import { blobResponse } from "~/http/file-response.server";
import { apiError } from "~/http/api-response.server";
import { runApi } from "~/http/api-route.server";
import { servableOriginal } from "~/http/file-serving.server";
import { readShareUnlock } from "~/http/share-cookie.server";
import { openShare } from "~/services/files/file-shares.server";
import type { Route } from "./+types/share-link-raw";

/** GET /s/{token}/raw: the shared file's bytes (Range, ETag), for a link still open and, with a password, unlocked in this browser. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return runApi(context, async () => {
    const share = await openShare(context.db, params.token, { unlock: readShareUnlock(request) }, { countView: false });
    if (share.state !== "open") return apiError(share.state === "locked" ? "not_authenticated" : "not_found", share.state === "locked" ? "Enter the password on the share page first" : "Share not found");
    const download = new URL(request.url).searchParams.has("download");
    const response = await blobResponse(context, request, share.file.storage_key, servableOriginal(share.file), { forceAttachment: download });
    if (!response) return apiError("not_found", "File not found");
    response.headers.set("Cache-Control", "private, no-store");
    return response;
  });
}
