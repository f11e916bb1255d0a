import { methodNotAllowed } from "~/http/api-response.server";
import { withApiKey } from "~/http/api-route.server";
import { readLogBody, requestDataset } from "~/http/log-body.server";
import { requireActiveServer } from "~/services/api-keys/key-auth.server";
import { DEFAULT_DATASET } from "~/services/logs/log-datasets.server";
import { ingestLogs } from "~/services/logs/log-ingest.server";
import { parseLokiPush } from "~/services/logs/log-parsing.server";
import type { Route } from "./+types/loki-push";

/**
 * POST /loki/api/v1/push: Grafana Loki's JSON push, so ox_lib's `loki` logger and Promtail can point
 * here (the key as the Basic password or a bearer token). Answers 204 like Loki.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST", "Use POST to push logs");
  return withApiKey(context, request, { action: "logs.write", permission: "logs:write", audited: false }, async (caller) => {
    requireActiveServer(caller.serverStatus);
    const now = new Date();
    const entries = parseLokiPush(await readLogBody(request), now);
    await ingestLogs(context.db, context.logVolume, { serverId: caller.serverId, teamId: caller.teamId, tier: caller.tier }, entries, requestDataset(request) ?? DEFAULT_DATASET, now);
    return new Response(null, { status: 204 });
  });
}

export function loader() {
  return methodNotAllowed("POST", "Use POST to push logs");
}
