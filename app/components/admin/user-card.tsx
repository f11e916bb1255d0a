import { useFetcher } from "react-router";
import { UserAvatar } from "~/components/auth/user-menu";
import { AdminPlanControl } from "~/components/billing/admin-plan-control";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent } from "~/components/ui/card";
import { formatBytes, formatDate } from "~/lib/format";
import type { Tier } from "~/lib/plans";
import type { AdminUserRow, Role } from "~/lib/roles";

const ROLE_BADGE: Record<Role, "destructive" | "info" | "secondary"> = {
  admin: "destructive",
  moderator: "info",
  user: "secondary",
};

export function RoleBadge({ role }: { role: Role }) {
  return <Badge variant={ROLE_BADGE[role]}>{role}</Badge>;
}

export function AdminUserCard({ user, plan }: { user: AdminUserRow; plan?: { tier: Tier; addonGb: number } }) {
  const fetcher = useFetcher();
  const pendingRole = fetcher.formData?.get("role");
  const role = typeof pendingRole === "string" ? (pendingRole as Role) : user.role;
  const name = user.displayName || "Unnamed User";

  return (
    <Card data-testid="admin-user-card" data-user-id={user.id}>
      <CardContent className="flex flex-col gap-4 p-4 sm:flex-row sm:flex-wrap sm:items-center">
        <div className="flex min-w-0 flex-1 items-center gap-3">
          <UserAvatar user={user} className="size-10" />
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <span className="truncate font-semibold">{name}</span>
              <RoleBadge role={role} />
            </div>
            <p className="truncate text-xs text-muted-foreground">
              <span className="font-mono">{user.id.slice(0, 8)}</span>
              {user.email ? ` · ${user.email}` : null}
            </p>
          </div>
        </div>
        <dl className="grid grid-cols-3 gap-4 text-sm sm:w-80">
          <div>
            <dt className="text-xs text-muted-foreground">Servers</dt>
            <dd className="font-medium">{user.serversCount}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Storage</dt>
            <dd className="font-medium">{formatBytes(user.totalStorageUsed)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Joined</dt>
            <dd className="font-medium">{formatDate(user.createdAt)}</dd>
          </div>
        </dl>
        <fetcher.Form method="post" className="flex items-center gap-2">
          <input type="hidden" name="intent" value="setRole" />
          <input type="hidden" name="userId" value={user.id} />
          <label className="sr-only" htmlFor={`role-${user.id}`}>
            Role for {name}
          </label>
          <select
            id={`role-${user.id}`}
            name="role"
            value={role}
            disabled={fetcher.state !== "idle"}
            onChange={(event) => fetcher.submit(event.currentTarget.form)}
            className="h-9 rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <option value="user">User</option>
            <option value="moderator">Moderator</option>
            <option value="admin">Admin</option>
          </select>
          <noscript>
            <button type="submit" className="h-9 rounded-md border px-3 text-sm">
              Save
            </button>
          </noscript>
        </fetcher.Form>
        {plan ? <AdminPlanControl userId={user.id} name={name} plan={plan} /> : null}
      </CardContent>
    </Card>
  );
}
