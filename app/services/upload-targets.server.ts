import type { AppContext } from "./app-context.server.ts";
import { consumeUploadBudget, requireActiveServer, type ApiCaller } from "./api-auth.server.ts";
import { assertQuotaNotFull, loadUploadTarget, type UploadTarget } from "./uploads.server.ts";

/**
 * Everything checked before an upload's body is read: the server is active (403), the server's
 * uploads-per-minute budget (429) and an account that is already full (413).
 */
export async function prepareUploadTarget(ctx: AppContext, serverId: string): Promise<UploadTarget> {
  const target = await loadUploadTarget(ctx.db, ctx.config.maxUploadBytes, serverId);
  await consumeUploadBudget(ctx, target.serverId, target.tier);
  await assertQuotaNotFull(ctx.db, target.userId);
  return target;
}

export function keyedUploadTarget(ctx: AppContext, caller: ApiCaller): Promise<UploadTarget> {
  requireActiveServer(caller.serverStatus);
  return prepareUploadTarget(ctx, caller.serverId);
}
