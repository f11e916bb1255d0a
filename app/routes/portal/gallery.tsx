import { GalleryView } from "~/components/media/gallery-view";
import { ALL_CATEGORIES, canonicalCategory, groupedCategoryOptions } from "~/lib/categories";
import { pageTitle } from "~/lib/site";
import { listStoredCategories } from "~/services/servers/categories.server";
import { listGalleryFiles, normaliseSearch } from "~/services/files/gallery.server";
import { requireUser } from "~/http/guards.server";
import { expiryFlags } from "~/services/retention/expiry.server";
import { deleteOwnedFiles, MAX_BULK_DELETE, shareUrl } from "~/services/files/portal-files.server";
import { actionFail, actionOk } from "~/http/action-results.server";
import type { Route } from "./+types/gallery";

export function meta() {
  return [{ title: pageTitle("Media Gallery") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const params = new URL(request.url).searchParams;
  const q = normaliseSearch(params.get("q"));
  // Any category the scripts sent is a filter, read as its group (`phone_camera` → `phone_photos`).
  const rawCategory = params.get("category")?.trim();
  const category = !rawCategory || rawCategory === ALL_CATEGORIES ? ALL_CATEGORIES : canonicalCategory(rawCategory);
  const cursor = params.get("cursor");
  const [page, stored] = await Promise.all([
    listGalleryFiles(context.db, user.id, { search: q, category, cursor }),
    listStoredCategories(context.db, { userId: user.id }),
  ]);
  const hasAnyFiles = page.files.length > 0 || stored.length > 0;
  const expiring = await expiryFlags(context.db, page.files.map((f) => f.id));
  return {
    q,
    category,
    categories: groupedCategoryOptions(stored, category),
    cursor,
    hasAnyFiles,
    nextCursor: page.nextCursor,
    files: page.files.map((file) => ({
      id: file.id,
      originalFilename: file.originalFilename,
      category: file.category,
      mimeType: file.mimeType,
      sizeBytes: file.sizeBytes,
      playerName: file.playerName,
      createdAt: file.createdAt,
      isPublic: file.isPublic,
      shareUrl: shareUrl(context.config, file),
      expiryLabel: expiring.get(file.id) ?? null,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  const ids = form.getAll("id").map(String);
  const failed = (status: number, description: string) => actionFail("Error deleting file", description, status, undefined, { deleted: [] as string[] });
  if (form.get("intent") !== "delete") return failed(400, "Unknown action");
  if (ids.length === 0) return failed(400, "Select at least one file to delete.");
  if (ids.length > MAX_BULK_DELETE) return failed(400, `Delete at most ${MAX_BULK_DELETE} files at a time.`);
  const deleted = await deleteOwnedFiles(context, user.id, ids);
  if (deleted === 0) return failed(404, "Failed to delete file");
  return actionOk({ type: "success", title: "File deleted", description: deleted > 1 ? `${deleted} files have been deleted.` : undefined }, { deleted: ids });
}

export default function Gallery({ loaderData }: Route.ComponentProps) {
  return <GalleryView {...loaderData} />;
}
