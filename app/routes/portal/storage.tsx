import { StorageView } from "~/components/media/storage-view";
import { pageTitle } from "~/lib/site";
import { listGalleryFiles, normaliseSearch, parseGallerySort } from "~/services/files/gallery.server";
import { requireTeam } from "~/http/guards.server";
import { getStorageSummary, getUsageBreakdown } from "~/services/files/storage-summary.server";
import { runFileAction } from "~/http/file-actions.server";
import type { Route } from "./+types/storage";

export function meta() {
  return [{ title: pageTitle("Storage Manager") }];
}

const STORAGE_PAGE_SIZE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context, "view_media");
  const params = new URL(request.url).searchParams;
  const q = normaliseSearch(params.get("q"));
  const cursor = params.get("cursor");
  // What frees space first: the largest files, unless the owner picks another order.
  const sort = params.has("sort") ? parseGallerySort(params.get("sort")) : "largest";
  const [summary, breakdown, page] = await Promise.all([
    getStorageSummary(context.db, team.id),
    getUsageBreakdown(context.db, team.id),
    listGalleryFiles(context.db, team.id, { search: q, cursor, sort, limit: STORAGE_PAGE_SIZE }),
  ]);
  return {
    q,
    sort,
    cursor,
    summary,
    breakdown,
    nextCursor: page.nextCursor,
    files: page.files.map((file) => ({
      id: file.id,
      originalFilename: file.originalFilename,
      mimeType: file.mimeType,
      sizeBytes: file.sizeBytes,
      playerName: file.playerName,
      serverName: file.serverName,
      category: file.category,
      thumbhash: file.thumbhash,
      createdAt: file.createdAt,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return runFileAction(context, await requireTeam(request, context, "view_media"), await request.formData());
}

export default function Storage({ loaderData }: Route.ComponentProps) {
  return <StorageView {...loaderData} />;
}
