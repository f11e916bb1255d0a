import { methodNotAllowed } from "~/http/api-response.server";
import { withApiKey } from "~/http/api-route.server";
import { importAnswer } from "~/http/import-answers.server";
import { parseId } from "~/services/platform/ids.server";
import type { ImportId } from "~/lib/ids";
import type { Route } from "./+types/import";

/** GET /api/imports/{id}: the import's progress, then its report. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return withApiKey(context, request, { action: "import.read", permission: "read", audited: false }, async (caller) => importAnswer(context, caller.teamId, parseId<ImportId>(params.id)));
}

export function action() {
  return methodNotAllowed("GET, OPTIONS", "Use GET");
}
