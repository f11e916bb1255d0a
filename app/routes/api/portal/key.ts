import { methodNotAllowed, apiSuccess } from "~/http/api-response.server";
import { deleteManagedKey, updateManagedKey } from "~/services/api-keys/key-manager.server";
import { readJsonBody, withSession } from "~/http/session-api.server";
import type { Route } from "./+types/key";

const wrongMethod = () => methodNotAllowed("PUT, DELETE", "Use PUT or DELETE on /api/keys/{id}");

export function loader() {
  return wrongMethod();
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return withSession(request, context, async (user) => {
    if (request.method === "PUT") {
      return apiSuccess({ data: await updateManagedKey(context.db, user.id, params.id, await readJsonBody(request)) });
    }
    if (request.method === "DELETE") {
      await deleteManagedKey(context.db, user.id, params.id);
      return apiSuccess({ data: { id: params.id } });
    }
    return wrongMethod();
  });
}
