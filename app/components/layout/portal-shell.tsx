import type { ReactNode } from "react";
import { ThemeMenu } from "~/components/theme/theme-menu";
import { Sidebar, SidebarProvider, SidebarTrigger } from "~/components/layout/sidebar";
import type { TeamPermission } from "~/lib/team-roles";

export interface PortalShellProps {
  appName: string;
  sidebarOpen: boolean;
  showAdmin: boolean;
  /** What the member may do in the current team: the sidebar shows only those pages. */
  permissions: readonly TeamPermission[];
  /** The header's team switcher and user menu; the teams and accounts features supply them. */
  teamSwitcher?: ReactNode;
  userMenu?: ReactNode;
  children: ReactNode;
}

export function PortalShell({ appName, sidebarOpen, showAdmin, permissions, teamSwitcher, userMenu, children }: PortalShellProps) {
  return (
    <SidebarProvider defaultOpen={sidebarOpen}>
      <div className="flex min-h-screen w-full">
        <Sidebar appName={appName} showAdmin={showAdmin} permissions={permissions} />
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background/90 px-3 backdrop-blur md:px-4">
            <SidebarTrigger />
            <span className="hidden font-semibold tracking-tight sm:inline">{appName}</span>
            {teamSwitcher}
            <div className="ml-auto flex items-center gap-1">
              <ThemeMenu />
              {userMenu}
            </div>
          </header>
          <main id="main" className="flex-1 p-4 md:p-6">
            {children}
          </main>
        </div>
      </div>
    </SidebarProvider>
  );
}
