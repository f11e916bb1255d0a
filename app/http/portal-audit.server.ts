import type { AppLoadContext } from "react-router";
import type { TeamAuthenticated } from "~/http/guards.server";
import type { KeyEvent } from "~/services/api-keys/key-manager.server";
import { recordAudit, type AuditEntryInput } from "~/services/platform/audit-trail.server";

/** Who acted in the portal: the signed-in member, in their current team. */
export type PortalActor = Pick<TeamAuthenticated, "user" | "team">;

/**
 * Records what the signed-in member just did in the portal on their team's audit trail (/audit),
 * with the request's address. Best effort: a failed write is logged, never the action's failure.
 */
export async function recordPortalAudit(context: AppLoadContext, actor: PortalActor, entry: Omit<AuditEntryInput, "teamId" | "actorUserId" | "ip">): Promise<void> {
  await recordAudit(context.db, { ...entry, teamId: actor.team.id, actorUserId: actor.user.id, ip: context.clientIp }).catch((error) =>
    context.logger.error({ err: error, action: entry.action }, "could not record an audit entry"),
  );
}

/** "1 file" / "3 files": the target of a bulk file action. */
export const filesTarget = (count: number) => `${count} ${count === 1 ? "file" : "files"}`;

/** A key created, changed, regenerated or deleted through the key manager. */
export function recordKeyEvent(context: AppLoadContext, actor: PortalActor, event: KeyEvent): Promise<void> {
  return recordPortalAudit(context, actor, { action: event.action, target: event.keyName, serverId: event.serverId, detail: { key_id: event.keyId } });
}
