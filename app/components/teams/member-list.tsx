import { useState } from "react";
import { useFetcher } from "react-router";
import { NativeSelect } from "~/components/api-keys/native-select";
import { PermissionChoices } from "~/components/teams/permission-choices";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import type { ActionResult } from "~/lib/action-result";
import { ASSIGNABLE_ROLES, PERMISSION_LABELS, ROLE_LABELS, type AssignableRole, type TeamPermission, type TeamRole } from "~/lib/team-roles";

export interface MemberView {
  userId: string;
  email: string | null;
  displayName: string | null;
  role: TeamRole;
  permissions: TeamPermission[];
}

export function MemberList({ members, me, myRole, canManage }: { members: MemberView[]; me: string; myRole: TeamRole; canManage: boolean }) {
  return (
    <ul className="divide-y rounded-md border" aria-label="Members">
      {members.map((member) => (
        <MemberRow key={member.userId} member={member} isMe={member.userId === me} myRole={myRole} canManage={canManage} />
      ))}
    </ul>
  );
}

function MemberRow({ member, isMe, myRole, canManage }: { member: MemberView; isMe: boolean; myRole: TeamRole; canManage: boolean }) {
  const [editing, setEditing] = useState(false);
  const save = useFetcher<ActionResult>();
  const other = useFetcher<ActionResult>();
  const name = member.displayName ?? member.email ?? "Member";
  const editable = canManage && member.role !== "owner" && !isMe;
  return (
    <li className="space-y-3 p-3" data-testid="member-row">
      <div className="flex flex-wrap items-center gap-3">
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            <span className="truncate">{name}</span>
            <Badge variant={member.role === "owner" ? "success" : "secondary"}>{ROLE_LABELS[member.role]}</Badge>
            {isMe ? <span className="text-xs text-muted-foreground">(you)</span> : null}
          </p>
          <p className="truncate text-xs text-muted-foreground">{member.email}</p>
          <p className="text-xs text-muted-foreground" data-testid="member-permissions">
            {member.permissions.map((p) => PERMISSION_LABELS[p]).join(" · ") || "No permissions"}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {editable ? (
            <Button type="button" variant="outline" size="sm" aria-expanded={editing} onClick={() => setEditing((v) => !v)}>
              {editing ? "Cancel" : "Edit access"}
            </Button>
          ) : null}
          {editable ? (
            <other.Form method="post" onSubmit={(e) => (window.confirm(`Remove ${name} from the team?`) ? undefined : e.preventDefault())}>
              <input type="hidden" name="intent" value="member-remove" />
              <input type="hidden" name="userId" value={member.userId} />
              <Button type="submit" variant="outline" size="sm" disabled={other.state !== "idle"}>
                Remove
              </Button>
            </other.Form>
          ) : null}
          {myRole === "owner" && !isMe ? (
            <other.Form method="post" onSubmit={(e) => (window.confirm(`Make ${name} the owner? You stay as an admin.`) ? undefined : e.preventDefault())}>
              <input type="hidden" name="intent" value="transfer" />
              <input type="hidden" name="userId" value={member.userId} />
              <Button type="submit" variant="ghost" size="sm" disabled={other.state !== "idle"}>
                Make owner
              </Button>
            </other.Form>
          ) : null}
          {isMe && member.role !== "owner" ? (
            <other.Form
              method="post"
              onSubmit={(e) => (window.confirm("Leave this team? You lose access to its servers and files.") ? undefined : e.preventDefault())}
            >
              <input type="hidden" name="intent" value="leave" />
              <Button type="submit" variant="outline" size="sm" disabled={other.state !== "idle"}>
                Leave team
              </Button>
            </other.Form>
          ) : null}
        </div>
      </div>
      {editing ? (
        <save.Form method="post" className="space-y-3 rounded-md bg-muted/40 p-3" aria-label={`Access of ${name}`}>
          <input type="hidden" name="intent" value="member-update" />
          <input type="hidden" name="userId" value={member.userId} />
          <label className="grid max-w-48 gap-1 text-sm">
            Role
            <NativeSelect name="role" defaultValue={member.role as AssignableRole}>
              {ASSIGNABLE_ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </NativeSelect>
          </label>
          <PermissionChoices idPrefix={`member-${member.userId}`} defaults={member.permissions} />
          <Button type="submit" size="sm" disabled={save.state !== "idle"}>
            Save access
          </Button>
        </save.Form>
      ) : null}
    </li>
  );
}
