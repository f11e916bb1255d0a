import type { AppLoadContext } from "react-router";
import { actionFail } from "~/http/action-results.server";
import { teamPermissionMessage } from "~/http/guards.server";
import { recordRefusedChange, type PortalActor } from "~/http/portal-audit.server";
import type { TeamPermission } from "~/lib/team-roles";
import type { ServerId } from "~/lib/ids";

export interface RefusedChange {
  /** The audit action the member tried, e.g. "file.delete". */
  action: string;
  /** What it was tried on, named as a done change would name it. */
  target: string;
  serverId?: ServerId | null;
  /** What a done change would record beside the target (the files of a bulk change). */
  detail?: Record<string, unknown>;
  permission: TeamPermission;
}

/**
 * A portal form's change refused for want of `permission`: recorded on the team's audit trail as
 * the action the member tried (as refused key calls are), answered with the 403 toast that names
 * the permission. Nothing else changes.
 */
export async function refuseChange<T extends object = object>(context: AppLoadContext, actor: PortalActor, change: RefusedChange, title = "Error", extra?: T) {
  await recordRefusedChange(context, actor, change);
  return actionFail(title, teamPermissionMessage(actor.team, change.permission), 403, undefined, extra);
}
