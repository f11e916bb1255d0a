import { apiSuccess, methodNotAllowed } from "~/http/api-response.server";
import { withApiKey } from "~/http/api-route.server";
import { decodeLogCursor, logFiltersOf, searchLogs } from "~/services/logs/log-search.server";
import type { Route } from "./+types/logs-search";
import type { AnswerBody } from "~/lib/api-contract/registry";
import type { LogSearchAnswer } from "~/lib/api-contract/logs";

/** GET /api/logs/search: the key's server's entries with the portal's filters, newest first, keyset-paged. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return withApiKey(context, request, { action: "logs.search", permission: "read" }, async (caller) => {
    const query = new URL(request.url).searchParams;
    const limit = query.has("limit") ? Number(query.get("limit")) : undefined;
    const result = await searchLogs(context.db, { teamId: caller.teamId, serverId: caller.serverId }, logFiltersOf(query), {
      before: decodeLogCursor(query.get("cursor")),
      limit: Number.isFinite(limit) ? limit : undefined,
    });
    return apiSuccess({
      data: result.entries.map((e) => ({ id: e.id, timestamp: e.ts.toISOString(), dataset: e.dataset, level: e.level, resource: e.resource, message: e.message, metadata: e.metadata })),
      next_cursor: result.next,
    } satisfies AnswerBody<typeof LogSearchAnswer>);
  });
}

export function action() {
  return methodNotAllowed("GET", "Use GET to search logs");
}
