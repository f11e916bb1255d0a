import type { TeamPermission } from "~/lib/team-roles";

interface NavEntry {
  label: string;
  to: string;
  icon: string;
  /** The team permission the page needs; the sidebar hides it from members without it. */
  needs?: TeamPermission;
}

/** Sidebar entries, in the spec's order. Icons are resolved by the sidebar component. */
export const PORTAL_NAV = [
  { label: "Dashboard", to: "/dashboard", icon: "dashboard" },
  { label: "My Servers", to: "/servers", icon: "servers" },
  { label: "Media Gallery", to: "/gallery", icon: "gallery", needs: "view_media" },
  { label: "Upload Media", to: "/upload", icon: "upload", needs: "view_media" },
  { label: "Storage Manager", to: "/storage", icon: "storage", needs: "view_media" },
  { label: "Import", to: "/import", icon: "import", needs: "manage_servers" },
  { label: "API Keys", to: "/api-keys", icon: "keys", needs: "manage_keys" },
  { label: "Billing", to: "/billing", icon: "billing", needs: "manage_billing" },
  { label: "Analytics", to: "/analytics", icon: "analytics" },
  { label: "Evidence Cases", to: "/cases", icon: "cases", needs: "view_media" },
  { label: "Logs", to: "/logs", icon: "logs", needs: "view_logs" },
  { label: "Team", to: "/team", icon: "team" },
  { label: "Audit Log", to: "/audit", icon: "audit", needs: "manage_members" },
  { label: "Documentation", to: "/docs", icon: "docs" },
  { label: "Settings", to: "/settings", icon: "settings" },
] as const satisfies readonly NavEntry[];

/** The portal entries a member with `permissions` may open. */
export function portalNavFor(permissions: readonly TeamPermission[]): ReadonlyArray<{ label: string; to: string; icon: NavIcon }> {
  return PORTAL_NAV.filter((item) => !("needs" in item) || permissions.includes(item.needs));
}

export const ADMIN_NAV = [
  { label: "Admin Dashboard", to: "/admin", icon: "admin" },
  { label: "All Servers", to: "/admin/servers", icon: "allServers" },
  { label: "Users", to: "/admin/users", icon: "users" },
  { label: "Teams", to: "/admin/teams", icon: "teams" },
  { label: "Reports", to: "/admin/reports", icon: "reports" },
] as const;

export type NavIcon = (typeof PORTAL_NAV)[number]["icon"] | (typeof ADMIN_NAV)[number]["icon"];

export const SIDEBAR_COOKIE = "sidebar_state";
export const SIDEBAR_COOKIE_MAX_AGE_S = 60 * 60 * 24 * 7;

/** Reads the sidebar cookie from a Cookie header; open unless the user closed it. */
export function sidebarOpenFromCookie(cookieHeader: string | null): boolean {
  const match = /(?:^|;\s*)sidebar_state=(true|false)/.exec(cookieHeader ?? "");
  return match?.[1] !== "false";
}
