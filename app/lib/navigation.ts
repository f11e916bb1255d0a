/** Sidebar entries, in the spec's order. Icons are resolved by the sidebar component. */
export const PORTAL_NAV = [
  { label: "Dashboard", to: "/dashboard", icon: "dashboard" },
  { label: "My Servers", to: "/servers", icon: "servers" },
  { label: "Media Gallery", to: "/gallery", icon: "gallery" },
  { label: "Upload Media", to: "/upload", icon: "upload" },
  { label: "Storage Manager", to: "/storage", icon: "storage" },
  { label: "API Keys", to: "/api-keys", icon: "keys" },
  { label: "Billing", to: "/billing", icon: "billing" },
  { label: "Analytics", to: "/analytics", icon: "analytics" },
  { label: "Evidence Cases", to: "/cases", icon: "cases" },
  { label: "Audit Log", to: "/audit", icon: "audit" },
  { label: "Documentation", to: "/docs", icon: "docs" },
  { label: "Settings", to: "/settings", icon: "settings" },
] as const;

export const ADMIN_NAV = [
  { label: "Admin Dashboard", to: "/admin", icon: "admin" },
  { label: "All Servers", to: "/admin/servers", icon: "allServers" },
  { label: "Users", to: "/admin/users", icon: "users" },
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
