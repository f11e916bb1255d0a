import { UploadView } from "~/components/media/upload-view";
import { exactCategoryOptions } from "~/lib/categories";
import { pageTitle } from "~/lib/site";
import { listStoredCategories } from "~/services/servers/categories.server";
import { requireTeam } from "~/http/guards.server";
import { listServersForTeam } from "~/services/servers/servers.server";
import type { Route } from "./+types/upload";

export function meta() {
  return [{ title: pageTitle("Upload Media") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context, "view_media");
  const [servers, stored] = await Promise.all([listServersForTeam(context.db, team.id), listStoredCategories(context.db, { teamId: team.id })]);
  const wanted = new URL(request.url).searchParams.get("server");
  const active = servers.filter((s) => s.status === "active");
  // ?server= picks one; with a single active server there is nothing to choose.
  const preselected = active.find((s) => s.id === wanted) ?? (active.length === 1 ? active[0] : null);
  return {
    preselectedServerId: preselected?.id ?? null,
    categories: exactCategoryOptions(stored),
    servers: servers.map((s) => ({
      id: s.id,
      name: s.name,
      active: s.status === "active",
      maxFileSizeMb: s.max_file_size_mb,
      defaultPublic: s.default_public,
    })),
  };
}

export default function Upload({ loaderData }: Route.ComponentProps) {
  return <UploadView {...loaderData} />;
}
