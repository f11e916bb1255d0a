import { methodNotAllowed, apiSuccess } from "~/http/api-response.server";
import { deleteManagedKey, keyEvent, updateManagedKey } from "~/services/api-keys/key-manager.server";
import { readJsonBody, withSession } from "~/http/session-api.server";
import { recordKeyEvent } from "~/http/portal-audit.server";
import type { Route } from "./+types/key";
import { parseId } from "~/services/platform/ids.server";
import type { ApiKeyId } from "~/lib/ids";

const wrongMethod = () => methodNotAllowed("PUT, DELETE", "Use PUT or DELETE on /api/keys/{id}");

export function loader() {
  return wrongMethod();
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return withSession(request, context, async (auth) => {
    if (request.method === "PUT") {
      const key = await updateManagedKey(context.db, auth.team, parseId<ApiKeyId>(params.id), await readJsonBody(request));
      await recordKeyEvent(context, auth, keyEvent("key.update", key));
      return apiSuccess({ data: key });
    }
    if (request.method === "DELETE") {
      await recordKeyEvent(context, auth, await deleteManagedKey(context.db, auth.team.id, parseId<ApiKeyId>(params.id)));
      return apiSuccess({ data: { id: params.id } });
    }
    return wrongMethod();
  }, { permission: "manage_keys" });
}
