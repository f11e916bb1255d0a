import { methodNotAllowed, apiSuccess } from "~/http/api-response.server";
import { deleteManagedKey, keyEvent, keyRequestOf, updateManagedKey } from "~/services/api-keys/key-manager.server";
import { readJsonBody, withSession } from "~/http/session-api.server";
import { recordKeyEvent, recordKeyRefusal } from "~/http/portal-audit.server";
import { isDomainError } from "~/services/platform/domain-error.server";
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
      const keyId = parseId<ApiKeyId>(params.id);
      const body = await readJsonBody(request);
      const key = await updateManagedKey(context.db, auth.team, keyId, body).catch(async (error: unknown) => {
        if (isDomainError(error, "permission_denied")) await recordKeyRefusal(context, auth, await keyRequestOf(context.db, auth.team.id, body, keyId), error);
        throw error;
      });
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
