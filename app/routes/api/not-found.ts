import type { Route } from "./+types/not-found";

function notFound({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  context.logger.warn({ path: new URL(request.url).pathname, requestId: context.requestId }, "unknown API path");
  return Response.json(
    { success: false, status: "error", error: "Not found", message: "Not found", code: "not_found" },
    { status: 404 },
  );
}

export const loader = notFound;
export const action = notFound;
