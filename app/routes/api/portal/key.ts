import { methodNotAllowed, apiSuccess } from "~/http/api-response.server";
import { deleteManagedKey, updateManagedKey } from "~/services/api-keys/key-manager.server";
import { readJsonBody, withSession } from "~/http/session-api.server";
import { recordPortalAudit } from "~/http/portal-audit.server";
import type { Route } from "./+types/key";

const wrongMethod = () => methodNotAllowed("PUT, DELETE", "Use PUT or DELETE on /api/keys/{id}");

export function loader() {
  return wrongMethod();
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return withSession(request, context, async (user) => {
    if (request.method === "PUT") {
      const key = await updateManagedKey(context.db, user.id, params.id, await readJsonBody(request));
      await recordPortalAudit(context, user.id, { action: "key.update", target: key.name, serverId: key.server_id, detail: { key_id: key.id } });
      return apiSuccess({ data: key });
    }
    if (request.method === "DELETE") {
      const event = await deleteManagedKey(context.db, user.id, params.id);
      await recordPortalAudit(context, user.id, { action: event.action, target: event.keyName, serverId: event.serverId, detail: { key_id: event.keyId } });
      return apiSuccess({ data: { id: params.id } });
    }
    return wrongMethod();
  });
}
