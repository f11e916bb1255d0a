import { apiError, apiSuccess } from "~/lib/api-response";
import { deleteManagedKey, updateManagedKey } from "~/services/api-keys/key-manager.server";
import { readJsonBody, withSession } from "~/http/session-api.server";
import type { Route } from "./+types/key";

const methodNotAllowed = () =>
  apiError(405, "method_not_allowed", "Use PUT or DELETE on /api/keys/{id}", {}, { Allow: "PUT, DELETE" });

export function loader() {
  return methodNotAllowed();
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
    return methodNotAllowed();
  });
}
