import { apiSuccess, methodNotAllowed } from "~/http/api-response.server";
import { withApiKey } from "~/http/api-route.server";
import { importAnswer, startImportFromRequest } from "~/http/import-answers.server";
import { listImports } from "~/services/imports/imports.server";
import type { Route } from "./+types/imports";

/** GET /api/imports: the key's team's imports, newest first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return withApiKey(context, request, { action: "import.list", permission: "read", audited: false }, async (caller) => apiSuccess({ imports: await listImports(context.db, caller.teamId) }));
}

/**
 * POST /api/imports: starts an import into the key's server (docs/moving-to-stash.md). JSON for a list of
 * URLs, a bot's channels or Fivemanage; multipart with `file` for an export or an archive. 202: the job
 * brings the files; GET /api/imports/{id} shows its progress and, once it ended, its report.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST, OPTIONS", "Use POST to start an import");
  return withApiKey(context, request, { action: "import.create", permission: "upload" }, async (caller) => {
    const id = await startImportFromRequest(context, request, { teamId: caller.teamId, serverId: caller.serverId, keyId: caller.keyId });
    return importAnswer(context, caller.teamId, id, { status: 202 });
  });
}
