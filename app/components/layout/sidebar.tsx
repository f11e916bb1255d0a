import {
  BarChart3,
  BookOpen,
  CreditCard,
  Flag,
  FolderOpen,
  HardDrive,
  History,
  Images,
  KeyRound,
  LayoutDashboard,
  PanelLeft,
  Server,
  Settings,
  ShieldCheck,
  Upload,
  ScrollText,
  FolderLock,
  Users,
  UsersRound,
  Building2,
  Logs,
} from "lucide-react";
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from "react";
import { NavLink } from "react-router";
import { Button } from "~/components/ui/button";
import { ADMIN_NAV, portalNavFor, SIDEBAR_COOKIE, SIDEBAR_COOKIE_MAX_AGE_S, type NavIcon } from "~/lib/navigation";
import { cn } from "~/lib/utils";
import type { TeamPermission } from "~/lib/team-roles";
import { useIsMobile } from "~/components/layout/use-is-mobile";

const ICONS: Record<NavIcon, typeof Server> = {
  dashboard: LayoutDashboard,
  servers: Server,
  gallery: Images,
  upload: Upload,
  storage: HardDrive,
  import: History,
  keys: KeyRound,
  billing: CreditCard,
  analytics: BarChart3,
  audit: ScrollText,
  cases: FolderLock,
  docs: BookOpen,
  settings: Settings,
  admin: ShieldCheck,
  allServers: FolderOpen,
  users: Users,
  team: UsersRound,
  logs: Logs,
  teams: Building2,
  reports: Flag,
};

interface SidebarState {
  open: boolean;
  mobile: boolean;
  mobileOpen: boolean;
  toggle(): void;
  setMobileOpen(open: boolean): void;
}

const SidebarContext = createContext<SidebarState | null>(null);

export function useSidebar() {
  const state = useContext(SidebarContext);
  if (!state) throw new Error("useSidebar must be used inside SidebarProvider");
  return state;
}

export function SidebarProvider({ defaultOpen, children }: { defaultOpen: boolean; children: ReactNode }) {
  const mobile = useIsMobile();
  const [open, setOpen] = useState(defaultOpen);
  const [mobileOpen, setMobileOpen] = useState(false);

  const toggle = useCallback(() => {
    if (mobile) {
      setMobileOpen((v) => !v);
      return;
    }
    setOpen((v) => {
      document.cookie = `${SIDEBAR_COOKIE}=${!v}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_S}; samesite=lax`;
      return !v;
    });
  }, [mobile]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === "b" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle]);

  return (
    <SidebarContext.Provider value={{ open, mobile, mobileOpen, toggle, setMobileOpen }}>{children}</SidebarContext.Provider>
  );
}

export function SidebarTrigger({ className }: { className?: string }) {
  const { toggle, open, mobile, mobileOpen } = useSidebar();
  return (
    <Button
      variant="ghost"
      size="icon"
      className={className}
      onClick={toggle}
      aria-label="Toggle sidebar"
      aria-expanded={mobile ? mobileOpen : open}
      aria-controls="portal-sidebar"
    >
      <PanelLeft />
    </Button>
  );
}

function NavItems({ items, collapsed, onNavigate }: { items: ReadonlyArray<{ label: string; to: string; icon: NavIcon }>; collapsed: boolean; onNavigate?: () => void }) {
  return (
    <ul className="flex flex-col gap-1">
      {items.map((item) => {
        const Icon = ICONS[item.icon];
        return (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.to === "/admin"}
              prefetch="intent"
              onClick={onNavigate}
              title={collapsed ? item.label : undefined}
              className={({ isActive }) =>
                cn(
                  "flex h-9 items-center gap-3 rounded-md px-2.5 text-sm font-medium text-sidebar-foreground/80 transition-colors hover:bg-sidebar-accent hover:text-sidebar-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                  isActive && "bg-sidebar-accent text-primary",
                )
              }
            >
              <Icon className="size-4 shrink-0" aria-hidden="true" />
              <span className={cn("truncate", collapsed && "sr-only")}>{item.label}</span>
            </NavLink>
          </li>
        );
      })}
    </ul>
  );
}

/** Spec widths: 16rem open, 3rem icon-only, 18rem as a sheet on mobile (below 768 px). */
export function Sidebar({ appName, showAdmin, permissions }: { appName: string; showAdmin: boolean; permissions: readonly TeamPermission[] }) {
  const { open, mobile, mobileOpen, setMobileOpen } = useSidebar();
  const collapsed = !mobile && !open;
  const close = () => setMobileOpen(false);
  const content = (
    <nav aria-label="Portal" className="flex h-full flex-col gap-6 overflow-y-auto px-2 py-4">
      <div className={cn("flex items-center gap-2 px-1.5 font-bold", collapsed && "justify-center px-0")}>
        <img src="/favicon.svg" alt="" className="size-7 shrink-0" />
        <span className={cn("text-lg tracking-tight", collapsed && "sr-only")}>{appName}</span>
      </div>
      <NavItems items={portalNavFor(permissions)} collapsed={collapsed} onNavigate={mobile ? close : undefined} />
      {showAdmin ? (
        <div className="flex flex-col gap-2">
          <p className={cn("px-2.5 text-xs font-semibold uppercase tracking-wider text-muted-foreground", collapsed && "sr-only")}>
            Admin
          </p>
          <NavItems items={ADMIN_NAV} collapsed={collapsed} onNavigate={mobile ? close : undefined} />
        </div>
      ) : null}
    </nav>
  );

  if (mobile) {
    return mobileOpen ? (
      <div className="fixed inset-0 z-40" role="dialog" aria-modal="true" aria-label="Navigation">
        <button type="button" aria-label="Close navigation" className="absolute inset-0 bg-black/60" onClick={close} />
        <aside id="portal-sidebar" data-state="mobile" className="absolute inset-y-0 left-0 w-[18rem] border-r bg-sidebar">
          {content}
        </aside>
      </div>
    ) : null;
  }

  return (
    <aside
      id="portal-sidebar"
      data-state={open ? "expanded" : "collapsed"}
      className={cn(
        "sticky top-0 hidden h-screen shrink-0 border-r border-sidebar-border bg-sidebar transition-[width] duration-200 md:block",
        open ? "w-[16rem]" : "w-[3rem]",
      )}
    >
      {content}
    </aside>
  );
}
