import type { AppContext } from "~/services/app-context.server";
import { consumeUploadBudget, requireActiveServer, type ApiCaller } from "~/services/api-keys/key-auth.server";
import { assertQuotaNotFull, loadUploadTarget, quotaExceeded, uploadTargetOf, type UploadSource, type UploadTarget } from "~/services/uploads/store-upload.server";
import type { ServerId, UserId } from "~/lib/ids";

/**
 * Everything checked before an upload's body is read: the server is active (403), the server's
 * uploads-per-minute budget (429) and an account that is already full (413).
 */
export async function prepareUploadTarget(ctx: AppContext, serverId: ServerId, source: UploadSource): Promise<UploadTarget> {
  const target = await loadUploadTarget(ctx.db, ctx.config.maxUploadBytes, serverId, source);
  await consumeUploadBudget(ctx, target.serverId, target.tier);
  await assertQuotaNotFull(ctx.db, target.teamId);
  return target;
}

/** prepareUploadTarget for a key's server, from what was read with the key (no further query). */
export async function keyedUploadTarget(ctx: AppContext, caller: ApiCaller): Promise<UploadTarget> {
  requireActiveServer(caller.serverStatus);
  const target = uploadTargetOf({ serverId: caller.serverId, teamId: caller.teamId, tier: caller.tier, settings: caller.server }, ctx.config.maxUploadBytes, keySource(caller));
  target.keyScopes = caller.scopes;
  if (caller.scopes.maxFileBytes !== null) target.maxBytes = Math.min(target.maxBytes, caller.scopes.maxFileBytes);
  await consumeUploadBudget(ctx, target.serverId, target.tier);
  if (!caller.quota) await assertQuotaNotFull(ctx.db, target.teamId);
  else if (caller.quota.usedBytes >= caller.quota.quotaBytes) throw quotaExceeded(caller.quota.quotaBytes, caller.quota.usedBytes);
  return target;
}

export const keySource = (caller: ApiCaller): UploadSource => ({ via: "api", keyId: caller.keyId });
export const portalSource = (userId: UserId): UploadSource => ({ via: "portal", keyId: null, userId });
export const WEBHOOK_SOURCE: UploadSource = { via: "webhook", keyId: null };
