import type { AppLoadContext } from "react-router";
import { actionFail, actionOk } from "~/http/action-results.server";
import { ERROR_STATUS } from "~/http/api-response.server";
import type { TeamAuthenticated } from "~/http/guards.server";
import { recordPortalAudit, recordRefusedChange } from "~/http/portal-audit.server";
import { refuseChange } from "~/http/refused-changes.server";
import { redirectWithToast } from "~/http/toast.server";
import { ROLE_LABELS } from "~/lib/team-roles";
import { DomainError, isDomainError } from "~/services/platform/domain-error.server";
import { parseId } from "~/services/platform/ids.server";
import type { TeamId, UserId } from "~/lib/ids";
import { answerTeamInvitation, inviteTeamMember, revokeTeamInvitation } from "~/services/teams/team-invitations.server";
import { leaveTeam, memberLabel, memberRole, parseMemberAccess, removeTeamMember, transferTeamOwnership, updateTeamMember } from "~/services/teams/team-members.server";
import { chooseSessionTeam, createTeam, parseTeamName, renameTeam } from "~/services/teams/teams.server";

/** Each intent: the title of its error toast, and what the audit trail records it as (answering an invitation: join or decline). */
const INTENTS = {
  rename: { title: "Error renaming team", action: "team.rename" },
  invite: { title: "Error inviting member", action: "member.invite" },
  revoke: { title: "Error revoking invitation", action: "member.invite_revoke" },
  "member-update": { title: "Error changing access", action: "member.update" },
  "member-remove": { title: "Error removing member", action: "member.remove" },
  transfer: { title: "Error transferring ownership", action: "team.transfer" },
  leave: { title: "Error leaving team", action: "member.leave" },
  create: { title: "Error creating team", action: "team.create" },
  answer: { title: "Error answering invitation", action: "member.join" },
} as const;
type TeamIntent = keyof typeof INTENTS;

/** Intents that change the team or its invitations: owners and admins (manage members); changing a member is checked once the member is found. */
const MEMBER_MANAGEMENT = new Set<TeamIntent>(["rename", "invite", "revoke"]);

/** The member of `teamId` a form names; anyone else, or an id that is not one, is a member not found. */
async function memberIdOf(context: AppLoadContext, teamId: TeamId, form: FormData): Promise<UserId> {
  const userId = parseId<UserId>(form.get("userId"));
  if (!userId || !(await memberRole(context.db, teamId, userId))) throw new DomainError("not_found", "Member not found");
  return userId;
}

/**
 * The /team page's actions: rename, invite and revoke, change or remove a member, transfer
 * ownership, leave, create a team and answer an invitation. Each is recorded on the team's audit
 * trail; a refusal changes nothing and says why in a toast.
 */
export async function runTeamAction(context: AppLoadContext, auth: TeamAuthenticated, form: FormData) {
  const requested = String(form.get("intent") ?? "");
  // An own property only: "constructor" or "toString" are no action.
  if (!Object.hasOwn(INTENTS, requested)) return actionFail("Error", "Unknown action.", 400);
  const intent = requested as TeamIntent;
  const { title, action } = INTENTS[intent];
  const team = auth.team;
  // What the intent names, as the trail reads it: refused or done, the entry says who or what it was about.
  let target: string = team.name;
  try {
    // An intent naming a member looks them up first (memberIdOf): someone outside the team is the
    // same 404 whatever the asker may do. The others are refused at once.
    const refused = () => refuseChange(context, auth, { action, target, permission: "manage_members" }, title);
    if (intent === "invite") target = String(form.get("email") ?? "").trim() || "an invitation";
    if (MEMBER_MANAGEMENT.has(intent) && !team.permissions.includes("manage_members")) return refused();
    switch (intent) {
      case "rename": {
        const name = parseTeamName(form.get("name"));
        await renameTeam(context.db, team.id, name);
        await recordPortalAudit(context, auth, { action, target: name, detail: { from: team.name } });
        return actionOk({ type: "success", title: "Team renamed", description: `The team is now called ${name}.` });
      }
      case "invite": {
        const access = parseMemberAccess({ role: form.get("role"), permissions: form.has("customPermissions") ? form.getAll("permissions").map(String) : undefined });
        const { invitation } = await inviteTeamMember(context, {
          teamId: team.id,
          teamName: team.name,
          invitedBy: { userId: auth.user.id, name: auth.user.displayName ?? auth.user.email ?? "A team admin" },
          email: form.get("email"),
          ...access,
        });
        await recordPortalAudit(context, auth, { action, target: invitation.email, detail: { role: invitation.role } });
        return actionOk({ type: "success", title: "Invitation sent", description: `${invitation.email} was invited as ${ROLE_LABELS[invitation.role].toLowerCase()}.` });
      }
      case "revoke": {
        const invitation = await revokeTeamInvitation(context.db, { teamId: team.id, invitationId: String(form.get("invitationId") ?? "") });
        await recordPortalAudit(context, auth, { action, target: invitation.email });
        return actionOk({ type: "success", title: "Invitation revoked", description: `The link sent to ${invitation.email} no longer works.` });
      }
      case "member-update": {
        const userId = await memberIdOf(context, team.id, form);
        target = await memberLabel(context.db, userId);
        if (!team.permissions.includes("manage_members")) return refused();
        const access = parseMemberAccess({ role: form.get("role"), permissions: form.getAll("permissions").map(String) });
        await updateTeamMember(context.db, { teamId: team.id, userId, ...access });
        await recordPortalAudit(context, auth, { action, target, detail: { role: access.role, permissions: access.permissions ?? null } });
        return actionOk({ type: "success", title: "Access updated" });
      }
      case "member-remove": {
        const userId = await memberIdOf(context, team.id, form);
        target = await memberLabel(context.db, userId);
        if (!team.permissions.includes("manage_members")) return refused();
        await removeTeamMember(context.db, { teamId: team.id, userId });
        await recordPortalAudit(context, auth, { action, target });
        return actionOk({ type: "success", title: "Member removed", description: `${target} no longer has access to ${team.name}.` });
      }
      case "transfer": {
        const userId = await memberIdOf(context, team.id, form);
        target = await memberLabel(context.db, userId);
        await transferTeamOwnership(context.db, { teamId: team.id, fromUserId: auth.user.id, toUserId: userId });
        await recordPortalAudit(context, auth, { action, target });
        return actionOk({ type: "success", title: "Ownership transferred", description: `${target} now owns ${team.name}; you stay as an admin.` });
      }
      case "leave": {
        target = auth.user.email ?? auth.user.displayName ?? "a member";
        await leaveTeam(context.db, { teamId: team.id, userId: auth.user.id });
        await recordPortalAudit(context, auth, { action, target });
        return redirectWithToast("/dashboard", { type: "success", title: "Left team", description: `You are no longer a member of ${team.name}.` });
      }
      case "create": {
        const made = await createTeam(context.db, { name: parseTeamName(form.get("name")), ownerUserId: auth.user.id });
        await chooseSessionTeam(context.db, { sessionId: auth.sessionId, userId: auth.user.id, teamId: made.id });
        await recordPortalAudit(context, { user: auth.user, team: { ...team, id: made.id, name: made.name } }, { action, target: made.name });
        return redirectWithToast("/team", { type: "success", title: "Team created", description: `You are now working in ${made.name}. Invite your staff from here.` });
      }
      default: {
        const accept = form.get("answer") === "accept";
        const joined = await answerTeamInvitation(context.db, { invitationId: String(form.get("invitationId") ?? ""), user: auth.user, accept });
        const joinedTeam = { id: joined.teamId, name: joined.teamName, role: joined.role, permissions: [] };
        await recordPortalAudit(context, { user: auth.user, team: joinedTeam }, { action: accept ? "member.join" : "member.decline", target: auth.user.email ?? "a member", detail: { role: joined.role } });
        if (!accept) return actionOk({ type: "success", title: "Invitation declined" });
        await chooseSessionTeam(context.db, { sessionId: auth.sessionId, userId: auth.user.id, teamId: joined.teamId });
        return redirectWithToast("/dashboard", { type: "success", title: "Welcome to the team", description: `You joined ${joined.teamName} as ${ROLE_LABELS[joined.role].toLowerCase()}.` });
      }
    }
  } catch (error) {
    if (!isDomainError(error, "invalid_request", "not_found", "permission_denied")) throw error;
    // Refused for who they are in the team (only the owner transfers; the owner cannot leave or be removed): on the trail too.
    if (error.code === "permission_denied") await recordRefusedChange(context, auth, { action, target, permission: null });
    return actionFail(title, error.message, ERROR_STATUS[error.code]);
  }
}
