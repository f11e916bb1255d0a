import { apiError, apiSuccess } from "~/lib/api-response";
import { deleteManagedKey, updateManagedKey } from "~/services/api-keys/key-manager.server";
import { runApi } from "~/http/api-route.server";
import { readJsonBody, requireSessionForApi } from "~/http/session-api.server";
import type { Route } from "./+types/key";

const methodNotAllowed = () =>
  apiError(405, "method_not_allowed", "Use PUT or DELETE on /api/keys/{id}", {}, { Allow: "PUT, DELETE" });

export function loader() {
  return methodNotAllowed();
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return runApi(context, async () => {
    const user = await requireSessionForApi(request, context);
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
