import { MailPlus, UsersRound } from "lucide-react";
import { PageHeader } from "~/components/portal/page-header";
import { CreateTeamForm, InvitationsForYou, InviteMemberForm, PendingInvitations, RenameTeamForm } from "~/components/teams/team-forms";
import { MemberList } from "~/components/teams/member-list";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { pageTitle } from "~/lib/site";
import { ROLE_LABELS } from "~/lib/team-roles";
import { requireTeam } from "~/http/guards.server";
import { runTeamAction } from "~/http/team-actions.server";
import { listInvitationsForEmail, listTeamInvitations } from "~/services/teams/team-invitations.server";
import { listTeamMembers } from "~/services/teams/team-members.server";
import type { Route } from "./+types/team";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Team", matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, team } = await requireTeam(request, context);
  const canManage = team.permissions.includes("manage_members");
  const [members, invitations, forYou] = await Promise.all([
    listTeamMembers(context.db, team.id),
    canManage ? listTeamInvitations(context.db, team.id) : Promise.resolve([]),
    listInvitationsForEmail(context.db, user.email),
  ]);
  return {
    team,
    me: user.id,
    canManage,
    members: members.map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() })),
    invitations: invitations.map((i) => ({
      ...i,
      expiresAt: i.expiresAt.toISOString(),
      createdAt: i.createdAt.toISOString(),
    })),
    forYou: forYou.map((i) => ({ ...i, expiresAt: i.expiresAt.toISOString() })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const auth = await requireTeam(request, context);
  return runTeamAction(context, auth, await request.formData());
}

export default function Team({ loaderData }: Route.ComponentProps) {
  const { team, me, canManage, members, invitations, forYou } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Team"
        description={`${team.name} · you are ${ROLE_LABELS[team.role].toLowerCase()}. Everything in the portal (servers, files, keys, plan) belongs to the team you have chosen in the header.`}
      />
      {forYou.length ? <InvitationsForYou invitations={forYou} /> : null}
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <UsersRound className="size-5" aria-hidden /> Members
          </CardTitle>
          <CardDescription>
            Owners and admins hold every permission; developers manage servers and keys; members view media and logs. Admins can tailor each member&apos;s
            permissions.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <MemberList members={members} me={me} myRole={team.role} canManage={canManage} />
        </CardContent>
      </Card>
      {canManage ? (
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <MailPlus className="size-5" aria-hidden /> Invite a member
            </CardTitle>
            <CardDescription>They get an e-mail with a link that works for 7 days; they accept it signed in with that address.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            <InviteMemberForm />
            <PendingInvitations invitations={invitations} />
          </CardContent>
        </Card>
      ) : null}
      {canManage ? <RenameTeamForm name={team.name} /> : null}
      <CreateTeamForm />
    </div>
  );
}
