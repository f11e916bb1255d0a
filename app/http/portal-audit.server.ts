import type { AppLoadContext } from "react-router";
import type { TeamAuthenticated } from "~/http/guards.server";
import { requestTarget } from "~/lib/audit-targets";
import type { TeamPermission } from "~/lib/team-roles";
import type { KeyEvent } from "~/services/api-keys/key-manager.server";
import { recordAudit, type AuditEntryInput } from "~/services/platform/audit-trail.server";
import type { DomainError } from "~/services/platform/domain-error.server";

/** Who acted in the portal: the signed-in member, in their current team. */
export type PortalActor = Pick<TeamAuthenticated, "user" | "team">;

type PortalEntry = Omit<AuditEntryInput, "teamId" | "actorUserId" | "ip">;

/**
 * Records what the signed-in member just did in the portal on their team's audit trail (/audit),
 * with the request's address. Best effort: a failed write is logged, never the action's failure.
 */
export async function recordPortalAudit(context: AppLoadContext, actor: PortalActor, entry: PortalEntry): Promise<void> {
  await recordAudit(context.db, { ...entry, teamId: actor.team.id, actorUserId: actor.user.id, ip: context.clientIp }).catch((error) =>
    context.logger.error({ err: error, action: entry.action }, "could not record an audit entry"),
  );
}

/** The detail of a refused change, as a refused key call's: /audit shows "Refused 403". */
export function refusedDetail(permission: TeamPermission | null, status = 403) {
  return { status, refused: true, permission };
}

/** A member's change the team refused them: the action they tried, on what (its detail too), and the permission it needs. */
export function recordRefusedChange(context: AppLoadContext, actor: PortalActor, entry: PortalEntry & { permission: TeamPermission | null }): Promise<void> {
  const { permission, detail, ...rest } = entry;
  return recordPortalAudit(context, actor, { ...rest, detail: { ...detail, ...refusedDetail(permission) } });
}

/**
 * A change refused before its route ran (a form of a page the role may not use, a cookie API such as
 * billing): recorded as `portal.refused` with the method and path it asked for. Opening a page is
 * not recorded: reading what one may not read changes nothing.
 */
export async function recordRefusedRequest(context: AppLoadContext, actor: PortalActor, request: Request, permission: TeamPermission): Promise<void> {
  if (request.method === "GET" || request.method === "HEAD") return;
  await recordRefusedChange(context, actor, { action: "portal.refused", target: requestTarget(request.method, new URL(request.url).pathname), permission });
}

/** A key the member may not make or take a new secret of: it would carry a permission they do not hold (decision 098). */
export function recordKeyRefusal(context: AppLoadContext, actor: PortalActor, entry: Omit<PortalEntry, "detail">, refusal: DomainError): Promise<void> {
  const { permission, requires } = refusal.details as { permission?: string; requires?: TeamPermission };
  return recordRefusedChange(context, actor, { ...entry, detail: { key_permission: permission ?? null }, permission: requires ?? null });
}

/** A key created, changed, regenerated or deleted through the key manager. */
export function recordKeyEvent(context: AppLoadContext, actor: PortalActor, event: KeyEvent): Promise<void> {
  return recordPortalAudit(context, actor, { action: event.action, target: event.keyName, serverId: event.serverId, detail: { key_id: event.keyId } });
}
