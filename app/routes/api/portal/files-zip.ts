import { zipResponse } from "~/http/file-response.server";
import { withSession } from "~/http/session-api.server";
import { archiveOwnedFiles } from "~/services/files/file-archive.server";
import type { Route } from "./+types/files-zip";
import { parseIds } from "~/services/platform/ids.server";
import type { FileId } from "~/lib/ids";

/** GET /api/portal/files.zip?id=…&id=…: the gallery's "Download as zip" of the selected files. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return withSession(request, context, async ({ team }) => {
    const ids = parseIds<FileId>(new URL(request.url).searchParams.getAll("id"));
    const archive = await archiveOwnedFiles(context, team.id, ids);
    const stamp = new Date().toISOString().slice(0, 10);
    return zipResponse(archive.stream, `stash-files-${stamp}.zip`, (error) => context.logger.warn({ err: error }, "zip download ended early"));
  }, { permission: "view_media" });
}
