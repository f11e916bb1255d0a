import { Check, MailX, X } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { pageTitle } from "~/lib/site";
import { ROLE_LABELS } from "~/lib/team-roles";
import { authenticate, loadCurrentTeam, requireTeam } from "~/http/guards.server";
import { runTeamAction } from "~/http/team-actions.server";
import { findInvitationByToken } from "~/services/teams/team-invitations.server";
import type { Route } from "./+types/invitation";

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    {
      title: pageTitle(loaderData?.invitation ? `Join ${loaderData.invitation.teamName}` : "Invitation"),
    },
    { name: "robots", content: "noindex" },
  ];
}

/** /invitations/{token}: the link in an invitation e-mail; anyone holding it sees which team it is for. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const invitation = await findInvitationByToken(context.db, params.token);
  if (!invitation) throw data("This invitation link is not valid.", { status: 404 });
  const auth = await authenticate(request, context);
  if (auth) await loadCurrentTeam(context, auth);
  const signedInAs = auth?.user.email ?? null;
  return {
    appName: context.config.APP_NAME,
    invitation: {
      id: invitation.id,
      teamName: invitation.teamName,
      role: invitation.role,
      invitedBy: invitation.invitedBy,
      state: invitation.state,
      email: invitation.email,
    },
    signedIn: Boolean(auth),
    signedInAs,
    addressedToMe: Boolean(signedInAs && signedInAs.toLowerCase() === invitation.email),
    back: new URL(request.url).pathname,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const auth = await requireTeam(request, context);
  const form = await request.formData();
  form.set("intent", "answer");
  return runTeamAction(context, auth, form);
}

const STATE_TEXT = {
  accepted: "This invitation was already accepted.",
  declined: "This invitation was declined.",
  revoked: "This invitation was revoked by the team.",
  expired: "This invitation has expired. Ask the team for a new one.",
} as const;

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  const { appName, invitation, signedIn, signedInAs, addressedToMe, back } = loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <main id="main" className="flex min-h-screen flex-col items-center justify-center gap-6 p-4">
      <Link to="/" className="flex items-center gap-2 text-lg font-bold tracking-tight">
        <img src="/favicon.svg" alt="" className="size-7" />
        {appName}
      </Link>
      <Card className="w-full max-w-md">
        <CardHeader>
          <CardTitle>Join {invitation.teamName}</CardTitle>
          <CardDescription>
            {invitation.invitedBy ?? "A team admin"} invited {invitation.email} to join as {ROLE_LABELS[invitation.role].toLowerCase()}.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {invitation.state !== "pending" ? (
            <p className="flex items-center gap-2 text-sm" role="status">
              <MailX className="size-4" aria-hidden /> {STATE_TEXT[invitation.state]}
            </p>
          ) : !signedIn ? (
            <div className="space-y-3">
              <p className="text-sm text-muted-foreground">Sign in or create an account with {invitation.email} to answer.</p>
              <Button asChild className="w-full">
                <Link to={`/auth?${new URLSearchParams({ redirectTo: back, email: invitation.email })}`}>Sign in to answer</Link>
              </Button>
            </div>
          ) : !addressedToMe ? (
            <p className="text-sm" role="alert">
              This invitation is for {invitation.email}, but you are signed in as {signedInAs ?? "an account without an e-mail"}. Sign in with{" "}
              {invitation.email} to accept it.
            </p>
          ) : (
            <Form method="post" className="flex gap-2">
              <input type="hidden" name="invitationId" value={invitation.id} />
              <Button type="submit" name="answer" value="accept" disabled={busy} className="flex-1">
                <Check aria-hidden /> Accept
              </Button>
              <Button type="submit" name="answer" value="decline" variant="outline" disabled={busy} className="flex-1">
                <X aria-hidden /> Decline
              </Button>
            </Form>
          )}
          {actionData && "ok" in actionData && actionData.ok === false ? (
            <p role="alert" className="text-sm text-destructive">
              {actionData.error}
            </p>
          ) : null}
          {actionData && "ok" in actionData && actionData.ok ? <p role="status">Invitation declined.</p> : null}
        </CardContent>
      </Card>
    </main>
  );
}
