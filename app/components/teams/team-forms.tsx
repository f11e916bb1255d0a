import { Check, Plus, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { NativeSelect } from "~/components/api-keys/native-select";
import { PermissionChoices } from "~/components/teams/permission-choices";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { ActionResult } from "~/lib/action-result";
import { formatDateTime } from "~/lib/format";
import { ASSIGNABLE_ROLES, ROLE_LABELS, ROLE_PERMISSIONS, type AssignableRole } from "~/lib/team-roles";

/** Resets a form once its fetcher answered ok. */
function useResetOnSuccess(fetcher: { state: string; data?: ActionResult }) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) ref.current?.reset();
  }, [fetcher.state, fetcher.data]);
  return ref;
}

export function InviteMemberForm() {
  const fetcher = useFetcher<ActionResult>();
  const ref = useResetOnSuccess(fetcher);
  const [role, setRole] = useState<AssignableRole>("member");
  const [custom, setCustom] = useState(false);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form
      ref={ref}
      method="post"
      className="grid gap-4 md:grid-cols-[1fr_12rem_auto] md:items-end"
      onReset={() => (setRole("member"), setCustom(false))}
    >
      <input type="hidden" name="intent" value="invite" />
      <div className="grid gap-2">
        <Label htmlFor="invite-email">E-mail</Label>
        <Input id="invite-email" name="email" type="email" required maxLength={254} autoComplete="off" placeholder="staff@example.com" />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="invite-role">Role</Label>
        <NativeSelect id="invite-role" name="role" value={role} onChange={(e) => setRole(e.target.value as AssignableRole)}>
          {ASSIGNABLE_ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button type="submit" disabled={busy}>
        {busy ? "Sending..." : "Send invitation"}
      </Button>
      <div className="md:col-span-3">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="customPermissions" checked={custom} onChange={(e) => setCustom(e.target.checked)} className="size-4" />
          Tailor permissions
        </label>
        {custom ? <PermissionChoices key={role} idPrefix="invite" defaults={ROLE_PERMISSIONS[role]} className="mt-3" /> : null}
      </div>
    </fetcher.Form>
  );
}

export function PendingInvitations({
  invitations,
}: {
  invitations: Array<{
    id: string;
    email: string;
    role: AssignableRole;
    expiresAt: string;
  }>;
}) {
  if (invitations.length === 0) return <p className="text-sm text-muted-foreground">No pending invitations.</p>;
  return (
    <ul className="divide-y rounded-md border" aria-label="Pending invitations">
      {invitations.map((invitation) => (
        <PendingInvitation key={invitation.id} invitation={invitation} />
      ))}
    </ul>
  );
}

function PendingInvitation({
  invitation,
}: {
  invitation: {
    id: string;
    email: string;
    role: AssignableRole;
    expiresAt: string;
  };
}) {
  const fetcher = useFetcher<ActionResult>();
  return (
    <li className="flex flex-wrap items-center gap-3 p-3" data-testid="invitation-row">
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium">{invitation.email}</p>
        <p className="text-xs text-muted-foreground">
          {ROLE_LABELS[invitation.role]} · expires {formatDateTime(invitation.expiresAt)}
        </p>
      </div>
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="revoke" />
        <input type="hidden" name="invitationId" value={invitation.id} />
        <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"} aria-label={`Revoke the invitation for ${invitation.email}`}>
          Revoke
        </Button>
      </fetcher.Form>
    </li>
  );
}

export function InvitationsForYou({
  invitations,
}: {
  invitations: Array<{
    id: string;
    teamName: string;
    role: AssignableRole;
    expiresAt: string;
  }>;
}) {
  return (
    <Card className="border-primary/40">
      <CardHeader>
        <CardTitle>Invitations for you</CardTitle>
        <CardDescription>Accepting adds the team to your team switcher; your own team stays yours.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y rounded-md border">
          {invitations.map((invitation) => (
            <InvitationForYou key={invitation.id} invitation={invitation} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function InvitationForYou({
  invitation,
}: {
  invitation: {
    id: string;
    teamName: string;
    role: AssignableRole;
    expiresAt: string;
  };
}) {
  const fetcher = useFetcher<ActionResult>();
  const busy = fetcher.state !== "idle";
  return (
    <li className="flex flex-wrap items-center gap-3 p-3">
      <p className="min-w-0 flex-1">
        <span className="font-medium">{invitation.teamName}</span>
        <span className="text-sm text-muted-foreground"> as {ROLE_LABELS[invitation.role].toLowerCase()}</span>
      </p>
      <fetcher.Form method="post" className="flex gap-2">
        <input type="hidden" name="intent" value="answer" />
        <input type="hidden" name="invitationId" value={invitation.id} />
        <Button type="submit" name="answer" value="accept" size="sm" disabled={busy}>
          <Check aria-hidden /> Accept
        </Button>
        <Button type="submit" name="answer" value="decline" size="sm" variant="outline" disabled={busy}>
          <X aria-hidden /> Decline
        </Button>
      </fetcher.Form>
    </li>
  );
}

export function RenameTeamForm({ name }: { name: string }) {
  const fetcher = useFetcher<ActionResult>();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Team name</CardTitle>
      </CardHeader>
      <CardContent>
        <fetcher.Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <input type="hidden" name="intent" value="rename" />
          <div className="grid flex-1 gap-2">
            <Label htmlFor="team-name">Name</Label>
            <Input id="team-name" name="name" defaultValue={name} required maxLength={60} />
          </div>
          <Button type="submit" variant="outline" disabled={fetcher.state !== "idle"}>
            Save name
          </Button>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}

export function CreateTeamForm() {
  const fetcher = useFetcher<ActionResult>();
  return (
    <Card id="new-team">
      <CardHeader>
        <CardTitle>Create a team</CardTitle>
        <CardDescription>A new team starts on the free plan with no servers; you own it and can invite staff.</CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <input type="hidden" name="intent" value="create" />
          <div className="grid flex-1 gap-2">
            <Label htmlFor="new-team-name">Team name</Label>
            <Input id="new-team-name" name="name" required maxLength={60} placeholder="Los Santos RP staff" />
          </div>
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            <Plus aria-hidden /> Create team
          </Button>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
