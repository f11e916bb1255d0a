import { data, Outlet } from "react-router";
import { getOptionalUser } from "~/http/guards.server";
import { SiteFooter } from "~/components/marketing/site-footer";
import { SiteHeader } from "~/components/marketing/site-header";
import { loadStaticPageAsDocument, STATIC_PAGE_HANDLE } from "~/lib/static-page";
import type { Route } from "./+types/layout";

export const handle = STATIC_PAGE_HANDLE;

// A server loader keeps these pages server-rendered: a route with only a clientLoader would render its fallback.
// It also tells the header whether the visitor is signed in (no query without a session cookie); such a
// page is then the visitor's own, so no shared cache may keep it.
export async function loader({ request, context }: Route.LoaderArgs) {
  const signedIn = (await getOptionalUser(request, context)) !== null;
  return data({ appName: context.config.APP_NAME, signedIn }, signedIn ? { headers: { "Cache-Control": "private, no-store" } } : undefined);
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export const clientLoader = loadStaticPageAsDocument;

/** Navigation and footer around the public pages (/, /fivem-cdn, /pricing, /docs). */
export default function PublicLayout({ loaderData }: Route.ComponentProps) {
  const { appName, signedIn } = loaderData;
  return (
    <div className="public-site flex min-h-screen flex-col">
      <SiteHeader appName={appName} signedIn={signedIn} />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter appName={appName} />
    </div>
  );
}
