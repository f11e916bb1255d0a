import { apiSuccess } from "~/http/api-response.server";
import { withApiKey } from "~/http/api-route.server";
import { parseSearchParams, searchFiles } from "~/services/files/search.server";
import { toFileView } from "~/services/files/file-views.server";
import type { Route } from "./+types/search";
import type { AnswerBody } from "~/lib/api-contract/registry";
import type { SearchSuccess } from "~/lib/api-contract/schemas";

export async function loader({ request, context }: Route.LoaderArgs) {
  return withApiKey(context, request, { action: "file.search", permission: "read" }, async (caller) => {
    const query = parseSearchParams(caller.serverId, new URL(request.url).searchParams);
    const { files, total, totalCapped } = await searchFiles(context.db, query);
    return apiSuccess({
      files: files.map((file) => toFileView(context.config.cdnBaseUrl, file)),
      total,
      total_capped: totalCapped,
      limit: query.limit,
      offset: query.offset,
      page: query.page,
      has_more: totalCapped || query.offset + files.length < total,
    } satisfies AnswerBody<typeof SearchSuccess>);
  });
}
