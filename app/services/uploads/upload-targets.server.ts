import type { AppContext } from "~/services/app-context.server";
import { consumeUploadBudget, requireActiveServer, type ApiCaller } from "~/services/api-keys/key-auth.server";
import { assertQuotaNotFull, loadUploadTarget, type UploadTarget } from "~/services/uploads/store-upload.server";

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
