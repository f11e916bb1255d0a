import type { AppLoadContext } from "react-router";
import { actionFail, actionOk } from "~/http/action-results.server";
import { ERROR_STATUS } from "~/http/api-response.server";
import { teamPermissionMessage, type TeamAuthenticated } from "~/http/guards.server";
import { recordPortalAudit } from "~/http/portal-audit.server";
import { redirectWithToast } from "~/http/toast.server";
import { ROLE_LABELS } from "~/lib/team-roles";
import { DomainError, isDomainError } from "~/services/platform/domain-error.server";
import { parseId } from "~/services/platform/ids.server";
import type { TeamId, UserId } from "~/lib/ids";
import { answerTeamInvitation, inviteTeamMember, revokeTeamInvitation } from "~/services/teams/team-invitations.server";
import { leaveTeam, memberLabel, memberRole, parseMemberAccess, removeTeamMember, transferTeamOwnership, updateTeamMember } from "~/services/teams/team-members.server";
import { chooseSessionTeam, createTeam, parseTeamName, renameTeam } from "~/services/teams/teams.server";

const TITLES: Record<string, string> = {
  rename: "Error renaming team",
  invite: "Error inviting member",
  revoke: "Error revoking invitation",
  "member-update": "Error changing access",
  "member-remove": "Error removing member",
  transfer: "Error transferring ownership",
  leave: "Error leaving team",
  create: "Error creating team",
  answer: "Error answering invitation",
};

/** Intents that change the team or its invitations: owners and admins (manage members); changing a member is checked once the member is found. */
const MEMBER_MANAGEMENT = new Set(["rename", "invite", "revoke"]);

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
  const intent = String(form.get("intent") ?? "");
  const title = TITLES[intent] ?? "Error";
  if (!TITLES[intent]) return actionFail(title, "Unknown action.", 400);
  const team = auth.team;
  try {
    // An intent naming a member looks them up first (memberIdOf): someone outside the team is the
    // same 404 whatever the asker may do. The others are refused at once.
    const refused = () => actionFail(title, teamPermissionMessage(team, "manage_members"), 403);
    if (MEMBER_MANAGEMENT.has(intent) && !team.permissions.includes("manage_members")) return refused();
    switch (intent) {
      case "rename": {
        const name = parseTeamName(form.get("name"));
        await renameTeam(context.db, team.id, name);
        await recordPortalAudit(context, auth, { action: "team.rename", target: name });
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
        await recordPortalAudit(context, auth, { action: "member.invite", target: invitation.email, detail: { role: invitation.role } });
        return actionOk({ type: "success", title: "Invitation sent", description: `${invitation.email} was invited as ${ROLE_LABELS[invitation.role].toLowerCase()}.` });
      }
      case "revoke": {
        const invitation = await revokeTeamInvitation(context.db, { teamId: team.id, invitationId: String(form.get("invitationId") ?? "") });
        await recordPortalAudit(context, auth, { action: "member.invite_revoke", target: invitation.email });
        return actionOk({ type: "success", title: "Invitation revoked", description: `The link sent to ${invitation.email} no longer works.` });
      }
      case "member-update": {
        const userId = await memberIdOf(context, team.id, form);
        if (!team.permissions.includes("manage_members")) return refused();
        const access = parseMemberAccess({ role: form.get("role"), permissions: form.getAll("permissions").map(String) });
        await updateTeamMember(context.db, { teamId: team.id, userId, ...access });
        await recordPortalAudit(context, auth, { action: "member.update", target: await memberLabel(context.db, userId), detail: { role: access.role, permissions: access.permissions ?? null } });
        return actionOk({ type: "success", title: "Access updated" });
      }
      case "member-remove": {
        const userId = await memberIdOf(context, team.id, form);
        if (!team.permissions.includes("manage_members")) return refused();
        const target = await memberLabel(context.db, userId);
        await removeTeamMember(context.db, { teamId: team.id, userId });
        await recordPortalAudit(context, auth, { action: "member.remove", target });
        return actionOk({ type: "success", title: "Member removed", description: `${target} no longer has access to ${team.name}.` });
      }
      case "transfer": {
        const userId = await memberIdOf(context, team.id, form);
        const target = await memberLabel(context.db, userId);
        await transferTeamOwnership(context.db, { teamId: team.id, fromUserId: auth.user.id, toUserId: userId });
        await recordPortalAudit(context, auth, { action: "team.transfer", target });
        return actionOk({ type: "success", title: "Ownership transferred", description: `${target} now owns ${team.name}; you stay as an admin.` });
      }
      case "leave": {
        await leaveTeam(context.db, { teamId: team.id, userId: auth.user.id });
        await recordPortalAudit(context, auth, { action: "member.leave", target: auth.user.email ?? auth.user.displayName ?? "a member" });
        return redirectWithToast("/dashboard", { type: "success", title: "Left team", description: `You are no longer a member of ${team.name}.` });
      }
      case "create": {
        const made = await createTeam(context.db, { name: parseTeamName(form.get("name")), ownerUserId: auth.user.id });
        await chooseSessionTeam(context.db, { sessionId: auth.sessionId, userId: auth.user.id, teamId: made.id });
        await recordPortalAudit(context, { user: auth.user, team: { ...team, id: made.id, name: made.name } }, { action: "team.create", target: made.name });
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
    return actionFail(title, error.message, ERROR_STATUS[error.code]);
  }
}
