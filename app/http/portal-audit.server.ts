import type { AppLoadContext } from "react-router";
import type { KeyEvent } from "~/services/api-keys/key-manager.server";
import { recordAudit, type AuditEntryInput } from "~/services/platform/audit-trail.server";

/**
 * Records what the signed-in person just did in the portal on their account's audit trail (/audit),
 * with the request's address. Best effort: a failed write is logged, never the action's failure.
 */
export async function recordPortalAudit(context: AppLoadContext, userId: string, entry: Omit<AuditEntryInput, "userId" | "actorUserId" | "ip">): Promise<void> {
  await recordAudit(context.db, { ...entry, userId, actorUserId: userId, ip: context.clientIp }).catch((error) =>
    context.logger.error({ err: error, action: entry.action }, "could not record an audit entry"),
  );
}

/** "1 file" / "3 files": the target of a bulk file action. */
export const filesTarget = (count: number) => `${count} ${count === 1 ? "file" : "files"}`;

/** A key created, changed, regenerated or deleted through the key manager. */
export function recordKeyEvent(context: AppLoadContext, userId: string, event: KeyEvent): Promise<void> {
  return recordPortalAudit(context, userId, { action: event.action, target: event.keyName, serverId: event.serverId, detail: { key_id: event.keyId } });
}
