import { blobResponse } from "~/http/file-response.server";
import { apiError } from "~/http/api-response.server";
import { runApi } from "~/http/api-route.server";
import { getOptionalUser } from "~/http/guards.server";
import { imageLimits } from "~/services/media/limits.server";
import { servableOriginal, servableVariant } from "~/http/file-serving.server";
import { findOwnedFile, galleryThumbnail } from "~/services/files/portal-files.server";
import { findVariant, PREVIEW_VARIANT } from "~/services/media/transforms.server";
import type { Route } from "./+types/media";

/** The owner's browser may keep a copy; shared caches must not, as the answer depends on the session. */
const PORTAL_CACHE = "private, max-age=3600";

/**
 * GET /api/media/{id}: a signed-in owner's own file, public or private, for the portal's View,
 * Download (?download=1, saved under the original name), card thumbnails (?thumb=1: a video's poster,
 * an audio file's waveform) and a video's hover preview (?preview=1, a 3 s animated WebP).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return runApi(context, () => serveOwnedFile({ request, context, params }));
}

async function serveOwnedFile({ request, context, params }: Pick<Route.LoaderArgs, "request" | "context" | "params">) {
  const user = await getOptionalUser(request, context);
  if (!user) return apiError("not_authenticated", "Not authenticated");
  const file = await findOwnedFile(context.db, user.id, params.id);
  if (!file) return apiError("not_found", "File not found");

  const query = new URL(request.url).searchParams;
  let response: Response | null;
  if (query.has("preview")) {
    const preview = await findVariant(context.db, file.id, PREVIEW_VARIANT);
    if (!preview) return apiError("not_found", "This file has no preview");
    response = await blobResponse(context, request, preview.storage_key, servableVariant(file, preview));
  } else if (query.has("thumb")) {
    const thumb = await galleryThumbnail({ db: context.db, blobs: context.blobs, limits: imageLimits(context.config) }, file);
    if (!thumb) return apiError("not_found", "This file has no thumbnail");
    response = await blobResponse(context, request, thumb.storage_key, servableVariant(file, thumb));
  } else {
    response = await blobResponse(context, request, file.storage_key, servableOriginal(file), {
      forceAttachment: query.has("download"),
    });
  }
  if (!response) {
    context.logger.error({ fileId: file.id }, "file row without its blob");
    return apiError("not_found", "File not found");
  }
  response.headers.set("Cache-Control", PORTAL_CACHE);
  return response;
}
