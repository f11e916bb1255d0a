import { data } from "react-router";
import { UserMenu } from "~/components/auth/user-menu";
import { OverageBanner } from "~/components/billing/overage-banner";
import { PortalOutlet } from "~/components/portal/page-skeleton";
import { PortalShell } from "~/components/layout/portal-shell";
import { sidebarOpenFromCookie } from "~/lib/navigation";
import { requireAuthenticated } from "~/http/guards.server";
import { getStorageOverage } from "~/services/billing/overage.server";
import type { Route } from "./+types/layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, headers } = await requireAuthenticated(request, context);
  return data(
    {
      appName: context.config.APP_NAME,
      sidebarOpen: sidebarOpenFromCookie(request.headers.get("Cookie")),
      user: { id: user.id, displayName: user.displayName, email: user.email, avatarUrl: user.avatarUrl },
      isAdmin: user.role === "admin",
      overage: await getStorageOverage(context.db, user.id),
    },
    { headers },
  );
}

export default function PortalLayout({ loaderData }: Route.ComponentProps) {
  return (
    <PortalShell
      appName={loaderData.appName}
      sidebarOpen={loaderData.sidebarOpen}
      showAdmin={loaderData.isAdmin}
      userMenu={<UserMenu user={loaderData.user} />}
    >
      <OverageBanner overage={loaderData.overage} />
      <PortalOutlet />
    </PortalShell>
  );
}
