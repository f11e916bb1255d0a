import { blobResponse } from "~/http/file-response.server";
import { apiError } from "~/http/api-response.server";
import { teamPermissionMessage } from "~/http/guards.server";
import { withSession } from "~/http/session-api.server";
import { parseId } from "~/services/platform/ids.server";
import type { FileId } from "~/lib/ids";
import { imageLimits } from "~/services/media/limits.server";
import { servableOriginal, servableVariant } from "~/http/file-serving.server";
import { findOwnedFile, galleryThumbnail } from "~/services/files/portal-files.server";
import { findVariant, PREVIEW_VARIANT } from "~/services/media/transforms.server";
import type { Route } from "./+types/media";
import type { CurrentTeam } from "~/lib/team-roles";

/**
 * The member's browser may keep a copy but asks again before each use (a 304 while the ETag holds):
 * whoever loses access (leaves, is removed, loses "View media") gets the 404 or 403 at once, not a
 * cached copy for an hour. Shared caches must not keep it, as the answer depends on the session.
 */
const PORTAL_CACHE = "private, no-cache";

/**
 * GET /api/media/{id}: a file of the session's current team, public or private, for a member who may
 * view media: the portal's View, Download (?download=1, saved under the original name), card
 * thumbnails (?thumb=1: a video's poster, an audio file's waveform) and a video's hover preview
 * (?preview=1, a 3 s animated WebP). Any other team's file is missing, whoever once owned it.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return withSession(request, context, ({ team }) => serveTeamFile({ request, context, params }, team));
}

async function serveTeamFile({ request, context, params }: Pick<Route.LoaderArgs, "request" | "context" | "params">, team: CurrentTeam) {
  const file = await findOwnedFile(context.db, team.id, parseId<FileId>(params.id));
  if (!file) return apiError("not_found", "File not found");
  if (!team.permissions.includes("view_media")) return apiError("permission_denied", teamPermissionMessage(team, "view_media"));

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
