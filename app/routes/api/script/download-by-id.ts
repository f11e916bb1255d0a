import { runApi } from "~/http/api-route.server";
import { downloadResponse, findVisibleFile } from "~/http/file-downloads.server";
import type { Route } from "./+types/download-by-id";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return runApi(context, async () => {
    const keyed = { headers: request.headers, query: new URL(request.url).searchParams, ip: context.clientIp };
    const file = await findVisibleFile(context, keyed, { id: params.id });
    return downloadResponse(context, { ...keyed, method: request.method }, file);
  });
}
