import { apiSuccess, methodNotAllowed } from "~/http/api-response.server";
import { withApiKey } from "~/http/api-route.server";
import { readLogBody, requestDataset } from "~/http/log-body.server";
import { DEFAULT_DATASET } from "~/services/logs/log-datasets.server";
import { ingestLogs } from "~/services/logs/log-ingest.server";
import { parseLogBody } from "~/services/logs/log-parsing.server";
import { requireActiveServer } from "~/services/api-keys/key-auth.server";
import type { Route } from "./+types/logs";
import type { AnswerBody } from "~/lib/api-contract/registry";
import type { LogIngestAnswer } from "~/lib/api-contract/logs";

/**
 * POST /api/logs, /api/logs/batch, /api/v3/logs (Stash's and Fivemanage's shapes) and /v1/logs
 * (Fivemerr's): one entry, an array, or `{logs: [...]}`, with a key holding `logs:write`.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST, OPTIONS", "Use POST to send logs");
  return withApiKey(context, request, { action: "logs.write", permission: "logs:write", audited: false }, async (caller) => {
    requireActiveServer(caller.serverStatus);
    const now = new Date();
    const entries = parseLogBody(await readLogBody(request), now);
    const result = await ingestLogs(context.db, context.logVolume, { serverId: caller.serverId, teamId: caller.teamId, tier: caller.tier }, entries, requestDataset(request) ?? DEFAULT_DATASET, now);
    return apiSuccess({ accepted: result.accepted, datasets: result.datasets } satisfies AnswerBody<typeof LogIngestAnswer>);
  });
}

export function loader() {
  return methodNotAllowed("POST, OPTIONS", "Use POST to send logs");
}
