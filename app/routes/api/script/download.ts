import { apiError } from "~/lib/api-response";
import { runApi } from "~/http/api-route.server";
import { downloadResponse, findVisibleFile, parseFileReference } from "~/http/file-downloads.server";
import type { Route } from "./+types/download";

export async function loader({ request, context }: Route.LoaderArgs) {
  return runApi(context, async () => {
    const query = new URL(request.url).searchParams;
    const ref = parseFileReference(query.get("file"));
    if (!ref) return apiError(400, "invalid_request", "file must be {server_id}/{category}/{filename}");
    const keyed = { headers: request.headers, query, ip: context.clientIp };
    const file = await findVisibleFile(context, keyed, ref);
    return downloadResponse(context, { ...keyed, method: request.method }, file);
  });
}
