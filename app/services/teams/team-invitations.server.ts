import type { Db } from "../../../db/index";
import type { InvitationStatus } from "../../../db/schema";
import { DomainError } from "~/services/platform/domain-error.server";
import { isUuid, randomString, sha256Hex } from "~/services/platform/ids.server";
import { escapeHtml, sendMail, type MailContext, type SentMail } from "~/services/platform/mail.server";
import type { Config } from "~/services/platform/env.server";
import { ROLE_LABELS, type AssignableRole, type TeamPermission, type TeamRole } from "~/lib/team-roles";
import { permissionsFor } from "~/services/teams/teams.server";
import { DAY_MS } from "~/lib/durations";
import type { TeamId, UserId } from "~/lib/ids";

export const INVITATION_TTL_MS = 7 * DAY_MS;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface InvitationRow {
  id: string;
  email: string;
  role: AssignableRole;
  status: InvitationStatus;
  expiresAt: Date;
  createdAt: Date;
}

type InviteMailContext = MailContext & { config: MailContext["config"] & Pick<Config, "appUrl" | "APP_NAME"> };

export function invitationLink(config: Pick<Config, "appUrl">, token: string): string {
  return `${config.appUrl}/invitations/${encodeURIComponent(token)}`;
}

/**
 * Invite an address to the team with a role (and, optionally, tailored permissions). A pending
 * invitation to the same address is replaced; a current member cannot be invited again.
 */
export async function inviteTeamMember(
  ctx: InviteMailContext & { db: Db },
  input: { teamId: TeamId; teamName: string; invitedBy: { userId: UserId; name: string }; email: unknown; role: AssignableRole; permissions?: TeamPermission[] },
): Promise<{ invitation: InvitationRow; mail: SentMail; token: string }> {
  const email = typeof input.email === "string" ? input.email.trim().toLowerCase() : "";
  if (!EMAIL_PATTERN.test(email) || email.length > 254) throw new DomainError("invalid_request", "Enter a valid email address");
  const token = randomString(43);
  const invitation = await ctx.db.transaction().execute(async (trx) => {
    const member = await trx
      .selectFrom("team_members as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select("m.user_id")
      .where("m.team_id", "=", input.teamId)
      .where((eb) => eb(eb.fn("lower", ["u.email"]), "=", email))
      .executeTakeFirst();
    if (member) throw new DomainError("invalid_request", `${email} is already a member of this team`);
    await trx
      .updateTable("team_invitations")
      .set({ status: "revoked", answered_at: new Date() })
      .where("team_id", "=", input.teamId)
      .where("email", "=", email)
      .where("status", "=", "pending")
      .execute();
    return trx
      .insertInto("team_invitations")
      .values({
        team_id: input.teamId,
        email,
        role: input.role,
        permissions: permissionsFor(input.role, input.permissions),
        token_hash: sha256Hex(token),
        invited_by_user_id: input.invitedBy.userId,
        expires_at: new Date(Date.now() + INVITATION_TTL_MS),
      })
      .returning(["id", "email", "role", "status", "expires_at as expiresAt", "created_at as createdAt"])
      .executeTakeFirstOrThrow();
  });
  const link = invitationLink(ctx.config, token);
  const appName = ctx.config.APP_NAME;
  const intro = `${input.invitedBy.name} invited you to join the team ${input.teamName} on ${appName} as ${ROLE_LABELS[input.role].toLowerCase()}.`;
  const outro = "The invitation expires in 7 days. Sign in (or create an account) with this email address to accept or decline it.";
  const mail = await sendMail(ctx, {
    to: email,
    subject: `Join ${input.teamName} on ${appName}`,
    text: `${intro}\n\nOpen the invitation: ${link}\n\n${outro}\n`,
    html: `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">Open the invitation</a></p><p>${escapeHtml(outro)}</p>`,
    link,
  });
  return { invitation, mail, token };
}

export function listTeamInvitations(db: Db, teamId: TeamId): Promise<InvitationRow[]> {
  return db
    .selectFrom("team_invitations")
    .select(["id", "email", "role", "status", "expires_at as expiresAt", "created_at as createdAt"])
    .where("team_id", "=", teamId)
    .where("status", "=", "pending")
    .orderBy("created_at", "desc")
    .execute();
}

export async function revokeTeamInvitation(db: Db, input: { teamId: TeamId; invitationId: string }): Promise<InvitationRow> {
  if (!isUuid(input.invitationId)) throw new DomainError("not_found", "Invitation not found or already answered");
  const row = await db
    .updateTable("team_invitations")
    .set({ status: "revoked", answered_at: new Date() })
    .where("id", "=", input.invitationId)
    .where("team_id", "=", input.teamId)
    .where("status", "=", "pending")
    .returning(["id", "email", "role", "status", "expires_at as expiresAt", "created_at as createdAt"])
    .executeTakeFirst();
  if (!row) throw new DomainError("not_found", "Invitation not found or already answered");
  return row;
}

export interface InvitationView {
  id: string;
  teamId: TeamId;
  teamName: string;
  email: string;
  role: AssignableRole;
  invitedBy: string | null;
  /** What the link can still do: `pending` may be accepted or declined. */
  state: InvitationStatus | "expired";
}

/** The invitation a link names, as the invitation page shows it; null for a link that never existed. */
export async function findInvitationByToken(db: Db, token: string): Promise<InvitationView | null> {
  if (!/^[0-9A-Za-z]{20,100}$/.test(token)) return null;
  const row = await db
    .selectFrom("team_invitations as i")
    .innerJoin("teams as t", "t.id", "i.team_id")
    .leftJoin("users as u", "u.id", "i.invited_by_user_id")
    .select(["i.id", "i.team_id as teamId", "t.name as teamName", "i.email", "i.role", "i.status", "i.expires_at", "u.display_name as invitedBy"])
    .where("i.token_hash", "=", sha256Hex(token))
    .executeTakeFirst();
  if (!row) return null;
  const state = row.status === "pending" && row.expires_at.getTime() <= Date.now() ? "expired" : row.status;
  return { id: row.id, teamId: row.teamId, teamName: row.teamName, email: row.email, role: row.role, invitedBy: row.invitedBy, state };
}

/** Pending, unexpired invitations addressed to an account's e-mail, for the team page. */
export function listInvitationsForEmail(db: Db, email: string | null): Promise<Array<{ id: string; teamName: string; role: AssignableRole; expiresAt: Date }>> {
  if (!email) return Promise.resolve([]);
  return db
    .selectFrom("team_invitations as i")
    .innerJoin("teams as t", "t.id", "i.team_id")
    .select(["i.id", "t.name as teamName", "i.role", "i.expires_at as expiresAt"])
    .where((eb) => eb(eb.fn("lower", ["i.email"]), "=", email.toLowerCase()))
    .where("i.status", "=", "pending")
    .where("i.expires_at", ">", new Date())
    .orderBy("i.created_at", "desc")
    .execute();
}

/**
 * Accept or decline an invitation addressed to the signed-in person's e-mail. Accepting makes
 * them a member with the invited role; the invitation can be answered once.
 */
export async function answerTeamInvitation(
  db: Db,
  input: { invitationId: string; user: { id: UserId; email: string | null }; accept: boolean },
): Promise<{ teamId: TeamId; teamName: string; role: TeamRole }> {
  if (!isUuid(input.invitationId)) throw new DomainError("not_found", "This invitation is not addressed to your account");
  return db.transaction().execute(async (trx) => {
    const invitation = await trx
      .selectFrom("team_invitations as i")
      .innerJoin("teams as t", "t.id", "i.team_id")
      .select(["i.id", "i.team_id", "t.name", "i.email", "i.role", "i.permissions", "i.status", "i.expires_at"])
      .where("i.id", "=", input.invitationId)
      .forUpdate()
      .executeTakeFirst();
    if (!invitation || invitation.email !== input.user.email?.toLowerCase()) {
      throw new DomainError("not_found", "This invitation is not addressed to your account");
    }
    if (invitation.status !== "pending") throw new DomainError("invalid_request", `This invitation was already ${invitation.status}`);
    if (invitation.expires_at.getTime() <= Date.now()) throw new DomainError("invalid_request", "This invitation has expired; ask for a new one");
    await trx
      .updateTable("team_invitations")
      .set({ status: input.accept ? "accepted" : "declined", answered_at: new Date() })
      .where("id", "=", invitation.id)
      .execute();
    if (input.accept) {
      await trx
        .insertInto("team_members")
        .values({ team_id: invitation.team_id, user_id: input.user.id, role: invitation.role, permissions: invitation.permissions })
        .onConflict((oc) => oc.columns(["team_id", "user_id"]).doNothing())
        .execute();
    }
    return { teamId: invitation.team_id, teamName: invitation.name, role: invitation.role };
  });
}
