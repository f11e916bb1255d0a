import { runApi } from "~/services/api-route.server";
import { fileMetadataResponse } from "~/services/downloads.server";
import type { Route } from "./+types/file";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return runApi(context, () =>
    fileMetadataResponse(context, { headers: request.headers, query: new URL(request.url).searchParams, ip: context.clientIp }, params.id),
  );
}
