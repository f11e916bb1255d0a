import type { AppContext } from "~/services/app-context.server";
import { consumeUploadBudget, requireActiveServer, type ApiCaller } from "~/services/api-keys/key-auth.server";
import { assertQuotaNotFull, loadUploadTarget, type UploadSource, type UploadTarget } from "~/services/uploads/store-upload.server";

/**
 * Everything checked before an upload's body is read: the server is active (403), the server's
 * uploads-per-minute budget (429) and an account that is already full (413).
 */
export async function prepareUploadTarget(ctx: AppContext, serverId: string, source: UploadSource): Promise<UploadTarget> {
  const target = await loadUploadTarget(ctx.db, ctx.config.maxUploadBytes, serverId, source);
  await consumeUploadBudget(ctx, target.serverId, target.tier);
  await assertQuotaNotFull(ctx.db, target.userId);
  return target;
}

export function keyedUploadTarget(ctx: AppContext, caller: ApiCaller): Promise<UploadTarget> {
  requireActiveServer(caller.serverStatus);
  return prepareUploadTarget(ctx, caller.serverId, keySource(caller));
}

export const keySource = (caller: ApiCaller): UploadSource => ({ via: "api", keyId: caller.keyId });
export const PORTAL_SOURCE: UploadSource = { via: "portal", keyId: null };
export const WEBHOOK_SOURCE: UploadSource = { via: "webhook", keyId: null };
