import { Outlet } from "react-router";
import { PortalShell } from "~/components/layout/portal-shell";
import { sidebarOpenFromCookie } from "~/lib/navigation";
import type { Route } from "./+types/layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  return {
    appName: context.config.APP_NAME,
    sidebarOpen: sidebarOpenFromCookie(request.headers.get("Cookie")),
  };
}

export default function PortalLayout({ loaderData }: Route.ComponentProps) {
  return (
    <PortalShell appName={loaderData.appName} sidebarOpen={loaderData.sidebarOpen} showAdmin={false}>
      <Outlet />
    </PortalShell>
  );
}
