import { methodNotAllowed } from "~/http/api-response.server";
import { withApiKey } from "~/http/api-route.server";
import { urlMapAnswer } from "~/http/import-answers.server";
import { parseId } from "~/services/platform/ids.server";
import type { ImportId } from "~/lib/ids";
import type { Route } from "./+types/import-map";

/** GET /api/imports/{id}/map.csv and map.json: old link → new link of every file the import brought. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const format = new URL(request.url).pathname.endsWith(".csv") ? "csv" : "json";
  return withApiKey(context, request, { action: "import.read", permission: "read", audited: false }, async (caller) => urlMapAnswer(context, caller.teamId, parseId<ImportId>(params.id), format));
}

export function action() {
  return methodNotAllowed("GET, OPTIONS", "Use GET");
}
