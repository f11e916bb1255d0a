import { Outlet } from "react-router";
import { SiteFooter } from "~/components/marketing/site-footer";
import { SiteHeader } from "~/components/marketing/site-header";
import { loadStaticPageAsDocument, STATIC_PAGE_HANDLE } from "~/lib/static-page";
import type { Route } from "./+types/layout";

export const handle = STATIC_PAGE_HANDLE;

// A server loader keeps these pages server-rendered: a route with only a clientLoader would render its fallback.
export async function loader({ context }: Route.LoaderArgs) {
  return { appName: context.config.APP_NAME };
}

export const clientLoader = loadStaticPageAsDocument;

/** Navigation and footer around the public pages (/, /fivem-cdn, /pricing, /docs). */
export default function PublicLayout({ loaderData }: Route.ComponentProps) {
  const { appName } = loaderData;
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
