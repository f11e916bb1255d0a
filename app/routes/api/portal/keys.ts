import { methodNotAllowed, apiSuccess } from "~/http/api-response.server";
import { listManagedKeys, runKeyManagerPost } from "~/services/api-keys/key-manager.server";
import { readJsonBody, withSession } from "~/http/session-api.server";
import { recordKeyEvent } from "~/http/portal-audit.server";
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
    const result = await runKeyManagerPost(context.db, auth.team, await readJsonBody(request));
    if (result.secret) context.knownCredentials.rememberApiKey(result.secret);
    await recordKeyEvent(context, auth, result.event);
    return apiSuccess(result.body, { status: result.status });
  }, { permission: "manage_keys" });
}
