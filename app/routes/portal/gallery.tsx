import { GalleryView } from "~/components/media/gallery-view";
import { ALL_CATEGORIES, canonicalCategory, groupedCategoryOptions } from "~/lib/categories";
import { pageTitle } from "~/lib/site";
import { listStoredCategories } from "~/services/servers/categories.server";
import { listGalleryFiles, normaliseSearch, parseGallerySort } from "~/services/files/gallery.server";
import { listServersForTeam } from "~/services/servers/servers.server";
import { requireTeam } from "~/http/guards.server";
import { expiryFlags } from "~/services/retention/expiry.server";
import { shareUrl } from "~/services/files/portal-files.server";
import { runFileAction } from "~/http/file-actions.server";
import type { Route } from "./+types/gallery";

export function meta() {
  return [{ title: pageTitle("Media Gallery") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context, "view_media");
  const params = new URL(request.url).searchParams;
  const q = normaliseSearch(params.get("q"));
  // Any category the scripts sent is a filter, read as its group (`phone_camera` → `phone_photos`).
  const rawCategory = params.get("category")?.trim();
  const category = !rawCategory || rawCategory === ALL_CATEGORIES ? ALL_CATEGORIES : canonicalCategory(rawCategory);
  const cursor = params.get("cursor");
  const sort = parseGallerySort(params.get("sort"));
  const player = normaliseSearch(params.get("player"));
  const [from, to] = ["from", "to"].map((name) => (/^\d{4}-\d{2}-\d{2}$/.test(params.get(name) ?? "") ? params.get(name)! : ""));
  const servers = await listServersForTeam(context.db, team.id);
  const serverId = servers.find((s) => s.id === params.get("server"))?.id;
  const [page, stored] = await Promise.all([
    listGalleryFiles(context.db, team.id, { search: q, category, cursor, sort, serverId, player, from, to }),
    listStoredCategories(context.db, { teamId: team.id }),
  ]);
  const hasAnyFiles = page.files.length > 0 || stored.length > 0;
  const expiring = await expiryFlags(context.db, page.files.map((f) => f.id));
  return {
    q,
    category,
    categories: groupedCategoryOptions(stored, category),
    storedCategories: stored.map((c) => c.category),
    servers: servers.map((s) => ({ id: s.id, name: s.name })),
    serverId: serverId ?? "",
    sort,
    player,
    from,
    to,
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
      serverName: file.serverName,
      width: file.width,
      height: file.height,
      thumbhash: file.thumbhash,
      createdAt: file.createdAt,
      isPublic: file.isPublic,
      shareUrl: shareUrl(context.config, file),
      expiryLabel: expiring.get(file.id) ?? null,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return runFileAction(context, await requireTeam(request, context, "view_media"), await request.formData());
}

export default function Gallery({ loaderData }: Route.ComponentProps) {
  return <GalleryView {...loaderData} />;
}
