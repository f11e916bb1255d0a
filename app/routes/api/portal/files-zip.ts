import { Readable } from "node:stream";
import { withSession } from "~/http/session-api.server";
import { archiveOwnedFiles } from "~/services/files/file-archive.server";
import type { Route } from "./+types/files-zip";

/** GET /api/portal/files.zip?id=…&id=…: the gallery's "Download as zip" of the selected files. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return withSession(request, context, async (user) => {
    const ids = new URL(request.url).searchParams.getAll("id");
    const archive = await archiveOwnedFiles(context, user.id, ids);
    archive.stream.on("error", (error) => context.logger.warn({ err: error }, "zip download ended early"));
    const stamp = new Date().toISOString().slice(0, 10);
    return new Response(Readable.toWeb(archive.stream) as ReadableStream<Uint8Array>, {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="stash-files-${stamp}.zip"`,
        "Cache-Control": "private, no-store",
      },
    });
  });
}
