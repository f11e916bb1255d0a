import { Outlet } from "react-router";
import { SiteFooter } from "~/components/marketing/site-footer";
import { SiteHeader } from "~/components/marketing/site-header";
import { useRootData } from "~/root";

/** Navigation and footer around the public pages (/, /fivem-cdn, /pricing, /docs). */
export default function PublicLayout() {
  const appName = useRootData()?.appName ?? "Stash";
  return (
    <div className="public-site flex min-h-screen flex-col">
      <SiteHeader appName={appName} />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter appName={appName} />
    </div>
  );
}
