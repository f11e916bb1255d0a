import { methodNotAllowed, apiSuccess } from "~/http/api-response.server";
import { keyRequestOf, listManagedKeys, runKeyManagerPost } from "~/services/api-keys/key-manager.server";
import { readJsonBody, withSession } from "~/http/session-api.server";
import { recordKeyEvent, recordKeyRefusal } from "~/http/portal-audit.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import type { Route } from "./+types/keys";
import { parseServerId } from "~/services/platform/ids.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  return withSession(request, context, async ({ team }) => {
    const serverId = parseServerId(new URL(request.url).searchParams.get("server_id"));
    return apiSuccess({ data: await listManagedKeys(context.db, team.id, serverId) });
  }, { permission: "manage_keys" });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST", "Use GET or POST on /api/keys");
  return withSession(request, context, async (auth) => {
    const body = await readJsonBody(request);
    const result = await runKeyManagerPost(context.db, auth.team, body).catch(async (error: unknown) => {
      if (isDomainError(error, "permission_denied")) await recordKeyRefusal(context, auth, await keyRequestOf(context.db, auth.team.id, body), error);
      throw error;
    });
    if (result.secret) context.knownCredentials.rememberApiKey(result.secret);
    await recordKeyEvent(context, auth, result.event);
    return apiSuccess(result.body, { status: result.status });
  }, { permission: "manage_keys" });
}
