import { buildOpenApiDocument } from "~/lib/api-contract/openapi";
import type { Route } from "./+types/openapi";

export function loader({ context }: Route.LoaderArgs) {
  return Response.json(buildOpenApiDocument(context.config.appUrl, context.version), {
    headers: { "Cache-Control": "public, max-age=300" },
  });
}
