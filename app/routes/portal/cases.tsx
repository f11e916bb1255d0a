import { Download, FolderLock } from "lucide-react";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { PageHeader } from "~/components/portal/page-header";
import { NativeSelect } from "~/components/api-keys/native-select";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import type { ActionResult } from "~/lib/action-result";
import { formatCount, formatDateTime } from "~/lib/format";
import { pageTitle } from "~/lib/site";
import { actionFail, actionOk } from "~/http/action-results.server";
import { requireTeam } from "~/http/guards.server";
import { recordPortalAudit } from "~/http/portal-audit.server";
import { refuseChange } from "~/http/refused-changes.server";
import { caseTarget } from "~/lib/audit-targets";
import { caseViewerOf, findCaseForTeam, listCasesForTeam, openCase, setCaseStatus } from "~/services/files/evidence-cases.server";
import { caseMemberIds, setCaseMembers, teamMemberIds } from "~/services/files/case-members.server";
import { listTeamMembers } from "~/services/teams/team-members.server";
import { findServerForTeam, listServersForTeam } from "~/services/servers/servers.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import type { Route } from "./+types/cases";
import type { CaseId } from "~/lib/ids";
import { parseId, parseServerId } from "~/services/platform/ids.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Evidence Cases", matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, team } = await requireTeam(request, context, "view_media");
  const viewer = caseViewerOf(user.id, team.permissions);
  const [servers, cases, members] = await Promise.all([
    listServersForTeam(context.db, team.id),
    listCasesForTeam(context.db, team.id, viewer),
    viewer.seesAll ? listTeamMembers(context.db, team.id) : Promise.resolve([]),
  ]);
  const restricted = await caseMemberIds(context.db, cases.filter((c) => c.memberCount > 0).map((c) => c.id));
  return {
    servers: servers.map((s) => ({ id: s.id, name: s.name })),
    cases: cases.map((c) => ({ ...c, memberIds: restricted.get(c.id) ?? [] })),
    // Owners and admins choose who may see a case; everyone else sees the cases open to them.
    members: members.map((m) => ({ id: m.userId, name: m.displayName ?? m.email ?? "Member" })),
    // Closing releases evidence for deletion, so it needs what deleting needs (as the API's delete permission).
    mayCloseCases: team.permissions.includes("delete_media"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const auth = await requireTeam(request, context, "view_media");
  const viewer = caseViewerOf(auth.user.id, auth.team.permissions);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const chosenMembers = form.getAll("members").map(String);
  if (intent === "open") {
    const server = await findServerForTeam(context.db, auth.team.id, parseServerId(form.get("serverId")));
    if (!server) return actionFail("Error opening case", "Choose one of your servers.", 400);
    const number = String(form.get("number") ?? "").trim();
    if (chosenMembers.length && !viewer.seesAll) return refuseChange(context, auth, { action: "case.open", target: caseTarget(number), serverId: server.id, permission: "manage_members" });
    try {
      // Who may see it is checked before the case exists, so a wrong choice leaves no case behind.
      const members = await teamMemberIds(context.db, auth.team.id, chosenMembers);
      const { evidenceCase, created } = await openCase(context.db, {
        serverId: server.id,
        teamId: auth.team.id,
        body: { number: form.get("number") ?? undefined, title: form.get("title") || undefined, notes: form.get("notes") ?? undefined },
      });
      if (created && members.length) await setCaseMembers(context.db, { caseId: evidenceCase.id, teamId: auth.team.id, userIds: members });
      await recordPortalAudit(context, auth, { action: "case.open", target: caseTarget(evidenceCase.number), serverId: server.id });
      return actionOk({ type: "success", title: created ? "Case opened" : "Case updated", description: `Case ${evidenceCase.number} on ${server.name}.` });
    } catch (error) {
      if (!isDomainError(error, "invalid_request")) throw error;
      return actionFail("Error opening case", error.message, 400);
    }
  }
  if (intent !== "members" && intent !== "close" && intent !== "reopen") return actionFail("Error", "Unknown action.", 400);
  // The case before anything else: another team's case, or one hidden from this member, is the same 404 for everyone.
  const found = await findCaseForTeam(context.db, auth.team.id, parseId<CaseId>(form.get("caseId")), viewer);
  if (!found) return actionFail("Error", "Case not found", 404);
  if (intent === "members") {
    if (!viewer.seesAll) return refuseChange(context, auth, { action: "case.members", target: caseTarget(found.number), serverId: found.serverId, permission: "manage_members" });
    try {
      const count = await setCaseMembers(context.db, { caseId: found.id, teamId: auth.team.id, userIds: chosenMembers });
      await recordPortalAudit(context, auth, { action: "case.members", target: caseTarget(found.number), serverId: found.serverId, detail: { members: chosenMembers } });
      return actionOk({ type: "success", title: "Case access updated", description: count ? `Only ${count} chosen ${count === 1 ? "member" : "members"}, owners and admins see case ${found.number}.` : `Everyone in the team sees case ${found.number}.` });
    } catch (error) {
      if (!isDomainError(error, "invalid_request")) throw error;
      return actionFail("Error", error.message, 400);
    }
  }
  // Closing lets the case's files be deleted and expire, and reopening locks them again: either is a
  // decision about deleting evidence, so it needs "delete media", as the API needs a delete key.
  const change = { action: intent === "close" ? "case.close" : "case.reopen", target: caseTarget(found.number), serverId: found.serverId };
  if (!auth.team.permissions.includes("delete_media")) return refuseChange(context, auth, { ...change, permission: "delete_media" });
  await setCaseStatus(context.db, found.serverId, found.number, intent === "close" ? "closed" : "open");
  await recordPortalAudit(context, auth, change);
  return actionOk({
    type: "success",
    title: intent === "close" ? "Case closed" : "Case reopened",
    description: intent === "close" ? "Its files follow the retention rules again and can be deleted." : "Its files are kept and cannot be deleted while it is open.",
  });
}

type MemberChoice = { id: string; name: string };

/** Checkboxes of the team's members, posted as `members`; none chosen means the whole team sees the case. */
function MemberChoices({ members, chosen, idPrefix }: { members: MemberChoice[]; chosen: string[]; idPrefix: string }) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Who may see it</legend>
      <p className="text-xs text-muted-foreground">Leave all unticked for the whole team; owners and admins always see every case.</p>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {members.map((m) => (
          <label key={m.id} htmlFor={`${idPrefix}-${m.id}`} className="flex items-center gap-2 text-sm">
            <input id={`${idPrefix}-${m.id}`} type="checkbox" name="members" value={m.id} defaultChecked={chosen.includes(m.id)} className="size-4" />
            {m.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function CaseAccess({ caseId, members, chosen }: { caseId: CaseId; members: MemberChoice[]; chosen: string[] }) {
  const fetcher = useFetcher<ActionResult>();
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-muted-foreground">Who sees it</summary>
      <fetcher.Form method="post" className="mt-2 space-y-2">
        <input type="hidden" name="intent" value="members" />
        <input type="hidden" name="caseId" value={caseId} />
        <MemberChoices members={members} chosen={chosen} idPrefix={`case-${caseId}`} />
        <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"}>
          Save access
        </Button>
      </fetcher.Form>
    </details>
  );
}

function OpenCaseForm({ servers, members }: { servers: { id: string; name: string }[]; members: MemberChoice[] }) {
  const fetcher = useFetcher<ActionResult>();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) formRef.current?.reset();
  }, [fetcher.state, fetcher.data]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Open a case</CardTitle>
        <CardDescription>Files in an open case are kept whatever the retention rules say and cannot be deleted until it is closed.</CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form ref={formRef} method="post" className="grid gap-4 md:grid-cols-3">
          <input type="hidden" name="intent" value="open" />
          <div className="grid gap-2">
            <Label htmlFor="case-server">Server</Label>
            <NativeSelect id="case-server" name="serverId" required disabled={servers.length === 0}>
              {servers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="case-number">Case number</Label>
            <Input id="case-number" name="number" required maxLength={40} placeholder="LSPD-2291" autoComplete="off" />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="case-title">Title</Label>
            <Input id="case-title" name="title" maxLength={200} placeholder="Vinewood robbery" />
          </div>
          <div className="grid gap-2 md:col-span-3">
            <Label htmlFor="case-notes">Notes</Label>
            <Textarea id="case-notes" name="notes" maxLength={5000} rows={2} />
          </div>
          {members.length > 1 ? (
            <div className="md:col-span-3">
              <MemberChoices members={members} chosen={[]} idPrefix="new-case" />
            </div>
          ) : null}
          <div className="md:col-span-3">
            <Button type="submit" disabled={busy || servers.length === 0}>
              <FolderLock aria-hidden /> {busy ? "Opening..." : "Open case"}
            </Button>
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}

function StatusButton({ caseId, open }: { caseId: CaseId; open: boolean }) {
  const fetcher = useFetcher<ActionResult>();
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={open ? "close" : "reopen"} />
      <input type="hidden" name="caseId" value={caseId} />
      <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"}>
        {open ? "Close case" : "Reopen"}
      </Button>
    </fetcher.Form>
  );
}

export default function Cases({ loaderData }: Route.ComponentProps) {
  const { servers, cases, members, mayCloseCases } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader title="Evidence Cases" description="Numbered cases that keep evidence safe from retention and deletion, exported with a signed manifest." />
      <OpenCaseForm servers={servers} members={members} />
      {cases.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 py-12 text-center">
            <FolderLock className="size-8 text-muted-foreground" aria-hidden />
            <p className="font-medium">No cases yet</p>
            <p className="text-sm text-muted-foreground">Open one here, or let your MDT send case=NUMBER with its uploads.</p>
          </CardContent>
        </Card>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Cases">
          {cases.map((c) => (
            <li key={c.id} className="flex flex-col gap-3 p-3 md:flex-row md:items-center" data-testid="case-row">
              <div className="min-w-0 flex-1 space-y-1">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium break-words">{`${c.number} · ${c.title}`}</span>
                  <Badge variant={c.status === "open" ? "success" : "secondary"}>{c.status === "open" ? "Open" : "Closed"}</Badge>
                </div>
                <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
                  <span>{c.serverName}</span>
                  <span data-testid="case-files">{formatCount(c.fileCount, "file")}</span>
                  <span>Opened {formatDateTime(c.createdAt)}</span>
                  {c.closedAt ? <span>Closed {formatDateTime(c.closedAt)}</span> : null}
                  <span data-testid="case-access">{c.memberCount ? `Restricted to ${formatCount(c.memberCount, "member")}` : "Whole team"}</span>
                </div>
                {members.length > 1 ? <CaseAccess caseId={c.id} members={members} chosen={c.memberIds} /> : null}
                {c.notes ? <p className="text-sm break-words text-muted-foreground">{c.notes}</p> : null}
              </div>
              <div className="flex gap-2">
                <Button asChild variant="outline" size="sm">
                  <a href={`/cases/${c.id}/export.zip`} download>
                    <Download aria-hidden /> Export
                  </a>
                </Button>
                {mayCloseCases ? <StatusButton caseId={c.id} open={c.status === "open"} /> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
