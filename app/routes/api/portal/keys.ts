import { methodNotAllowed, apiSuccess } from "~/http/api-response.server";
import { listManagedKeys, runKeyManagerPost } from "~/services/api-keys/key-manager.server";
import { readJsonBody, withSession } from "~/http/session-api.server";
import { recordKeyEvent } from "~/http/portal-audit.server";
import type { Route } from "./+types/keys";

export async function loader({ request, context }: Route.LoaderArgs) {
  return withSession(request, context, async (user) => {
    const serverId = new URL(request.url).searchParams.get("server_id") ?? undefined;
    return apiSuccess({ data: await listManagedKeys(context.db, user.id, serverId) });
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST", "Use GET or POST on /api/keys");
  return withSession(request, context, async (user) => {
    const result = await runKeyManagerPost(context.db, user.id, await readJsonBody(request));
    await recordKeyEvent(context, user.id, result.event);
    return apiSuccess(result.body, { status: result.status });
  });
}
