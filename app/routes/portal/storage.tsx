import { StorageView } from "~/components/media/storage-view";
import { pageTitle } from "~/lib/site";
import { listGalleryFiles, normaliseSearch } from "~/services/files/gallery.server";
import { requireUser } from "~/http/guards.server";
import { deleteOwnedFiles } from "~/services/files/portal-files.server";
import { getStorageSummary } from "~/services/files/storage-summary.server";
import { actionFail, actionOk } from "~/http/action-results.server";
import type { Route } from "./+types/storage";

export function meta() {
  return [{ title: pageTitle("Storage Manager") }];
}

const STORAGE_PAGE_SIZE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const params = new URL(request.url).searchParams;
  const q = normaliseSearch(params.get("q"));
  const cursor = params.get("cursor");
  const [summary, page] = await Promise.all([
    getStorageSummary(context.db, user.id),
    listGalleryFiles(context.db, user.id, { search: q, cursor, limit: STORAGE_PAGE_SIZE }),
  ]);
  return {
    q,
    cursor,
    summary,
    nextCursor: page.nextCursor,
    files: page.files.map((file) => ({
      id: file.id,
      originalFilename: file.originalFilename,
      mimeType: file.mimeType,
      sizeBytes: file.sizeBytes,
      playerName: file.playerName,
      serverName: file.serverName,
      createdAt: file.createdAt,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  if (form.get("intent") !== "delete" || !id) return actionFail("Error deleting file", "Failed to delete file", 400);
  const deleted = await deleteOwnedFiles(context, user.id, [id]);
  if (deleted === 0) return actionFail("Error deleting file", "Failed to delete file", 404);
  return actionOk({ type: "success", title: "File deleted" });
}

export default function Storage({ loaderData }: Route.ComponentProps) {
  return <StorageView {...loaderData} />;
}
