import { apiError } from "~/http/api-response.server";
import { runApi } from "~/http/api-route.server";
import { downloadResponse, findVisibleFile, parseFileReference } from "~/http/file-downloads.server";
import type { Route } from "./+types/download";

export async function loader({ request, context }: Route.LoaderArgs) {
  return runApi(context, async () => {
    const query = new URL(request.url).searchParams;
    const ref = parseFileReference(query.get("file"));
    if (!ref) return apiError("invalid_request", "file must be {server_id}/{category}/{filename}");
    const keyed = { headers: request.headers, query, ip: context.clientIp };
    const file = await findVisibleFile(context, keyed, ref);
    return downloadResponse(context, { ...keyed, method: request.method }, file);
  });
}
