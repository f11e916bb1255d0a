import type { ReactNode } from "react";
import { ThemeMenu } from "~/components/theme/theme-menu";
import { Sidebar, SidebarProvider, SidebarTrigger } from "~/components/layout/sidebar";

export interface PortalShellProps {
  appName: string;
  sidebarOpen: boolean;
  showAdmin: boolean;
  /** The header's user menu; the accounts feature supplies it. */
  userMenu?: ReactNode;
  children: ReactNode;
}

export function PortalShell({ appName, sidebarOpen, showAdmin, userMenu, children }: PortalShellProps) {
  return (
    <SidebarProvider defaultOpen={sidebarOpen}>
      <div className="flex min-h-screen w-full">
        <Sidebar appName={appName} showAdmin={showAdmin} />
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background/90 px-3 backdrop-blur md:px-4">
            <SidebarTrigger />
            <span className="font-semibold tracking-tight">{appName}</span>
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
