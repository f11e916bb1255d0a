import { requireTeam } from "~/http/guards.server";
import { urlMapAnswer } from "~/http/import-answers.server";
import { parseId } from "~/services/platform/ids.server";
import type { ImportId } from "~/lib/ids";
import type { Route } from "./+types/import-map";

/** GET /import/{id}/map.csv: the Import page's download of an import's old → new links. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context, "manage_servers");
  return urlMapAnswer(context, team.id, parseId<ImportId>(params.id), "csv");
}
