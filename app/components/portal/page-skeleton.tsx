import { Outlet, useLocation, useNavigation } from "react-router";
import { UsersSkeleton } from "~/components/admin/users-skeleton";
import { Skeleton } from "~/components/ui/skeleton";

/**
 * Shown by the portal layout while the next page's loader runs, shaped like that page:
 * My Servers gets its three card skeletons, pages with stat cards get four tiles.
 */
export function PortalPageSkeleton({ pathname }: { pathname: string }) {
  if (pathname === "/admin/users") return <UsersSkeleton />;
  const cards = pathname === "/servers" ? 3 : 0;
  const stats = ["/dashboard", "/analytics", "/admin"].includes(pathname) ? 4 : 0;
  return (
    <div className="space-y-6" aria-busy="true" aria-live="polite">
      <span className="sr-only">Loading</span>
      <div className="space-y-2">
        <Skeleton className="h-8 w-48" />
        <Skeleton className="h-4 w-72 max-w-full" />
      </div>
      {stats ? (
        <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          {Array.from({ length: stats }, (_, i) => (
            <Skeleton key={i} className="h-28" />
          ))}
        </div>
      ) : null}
      {cards ? (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3" data-testid="server-card-skeletons">
          {Array.from({ length: cards }, (_, i) => (
            <Skeleton key={i} className="h-52" />
          ))}
        </div>
      ) : (
        <Skeleton className="h-64" />
      )}
    </div>
  );
}

/** The layouts' outlet: the next page's skeleton while its loader runs, then the page. */
export function PortalOutlet() {
  const navigation = useNavigation();
  const location = useLocation();
  const switching = navigation.state === "loading" && navigation.location.pathname !== location.pathname;
  return switching ? <PortalPageSkeleton pathname={navigation.location.pathname} /> : <Outlet />;
}
