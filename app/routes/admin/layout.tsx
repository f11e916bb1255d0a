import { data, isRouteErrorResponse } from "react-router";
import { UserMenu } from "~/components/auth/user-menu";
import { PortalOutlet } from "~/components/portal/page-skeleton";
import { PortalShell } from "~/components/layout/portal-shell";
import { sidebarOpenFromCookie } from "~/lib/navigation";
import { loadCurrentTeam, requireUserWithRole } from "~/http/guards.server";
import type { Route } from "./+types/layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = await requireUserWithRole(request, context, "admin");
  const { user, headers } = auth;
  const team = await loadCurrentTeam(context, auth);
  return data(
    {
      appName: context.config.APP_NAME,
      sidebarOpen: sidebarOpenFromCookie(request.headers.get("Cookie")),
      user: { id: user.id, displayName: user.displayName, email: user.email, avatarUrl: user.avatarUrl },
      permissions: team.permissions,
    },
    { headers },
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <PortalShell
      appName={loaderData.appName}
      sidebarOpen={loaderData.sidebarOpen}
      showAdmin
      permissions={loaderData.permissions}
      userMenu={<UserMenu user={loaderData.user} />}
    >
      <PortalOutlet />
    </PortalShell>
  );
}

/** Spec: a failed admin check shows "Failed to verify admin permissions: {error}". */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const adminCheckError =
    isRouteErrorResponse(error) && typeof error.data === "object" && error.data && "adminCheckError" in error.data
      ? String(error.data.adminCheckError)
      : null;
  if (!adminCheckError) throw error;
  return (
    <main className="flex min-h-screen items-center justify-center p-8">
      <p role="alert" className="max-w-lg rounded-md border border-destructive/40 bg-destructive/10 p-4 text-destructive">
        {adminCheckError}
      </p>
    </main>
  );
}
