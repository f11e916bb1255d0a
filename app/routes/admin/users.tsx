import { Users } from "lucide-react";
import { AdminUserCard } from "~/components/admin/user-card";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent } from "~/components/ui/card";
import { pageTitle } from "~/lib/site";
import { isRole } from "~/lib/roles";
import { listUsersForAdmin, setUserRole } from "~/services/accounts/roles.server";
import { requireUserWithRole } from "~/http/guards.server";
import { listPlansForAdmin } from "~/services/stats/admin-stats.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/users";
import { isDomainError } from "~/services/platform/domain-error.server";
import { parseId } from "~/services/platform/ids.server";
import type { UserId } from "~/lib/ids";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserWithRole(request, context, "admin");
  return { appName: context.config.APP_NAME, users: await listUsersForAdmin(context.db), plans: await listPlansForAdmin(context.db) };
}

async function back(type: "success" | "error", title: string, description: string) {
  return redirectWithToast("/admin/users", { type, title, description });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user: actor } = await requireUserWithRole(request, context, "admin");
  const form = await request.formData();
  const userId = parseId<UserId>(form.get("userId"));
  const role = form.get("role");
  if (form.get("intent") !== "setRole" || !userId) {
    return back("error", "Error", "Failed to update user role");
  }
  if (!isRole(role)) return back("error", "Error", "Unknown role");
  try {
    await setUserRole(context.db, { actorId: actor.id, userId, role });
  } catch (error) {
    if (isDomainError(error, "role_change_refused", "not_found")) return back("error", "Error", error.message);
    context.logger.error({ err: error, userId }, "role change failed");
    return back("error", "Error", "Failed to update user role");
  }
  context.logger.info({ actorId: actor.id, userId, role }, "user role changed");
  return back("success", "Role updated", "User role has been updated successfully");
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle("User Management", loaderData?.appName) }];
}

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { users, plans } = loaderData;
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">User Management</h1>
          <p className="text-muted-foreground">Every account, its usage and its role.</p>
        </div>
        <Badge variant="outline" className="gap-1 text-sm">
          <Users className="size-4" /> {users.length} {users.length === 1 ? "user" : "users"}
        </Badge>
      </div>
      {users.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 py-12 text-center">
            <Users className="size-10 text-muted-foreground" />
            <h2 className="text-lg font-semibold">No Users Found</h2>
            <p className="text-muted-foreground">No user accounts exist in the system</p>
          </CardContent>
        </Card>
      ) : (
        <div className="space-y-3">
          {users.map((user) => (
            <AdminUserCard key={user.id} user={user} plan={plans[user.id]} />
          ))}
        </div>
      )}
    </section>
  );
}
