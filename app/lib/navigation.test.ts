import { describe, expect, it } from "vitest";
import { PORTAL_NAV, portalNavFor, sidebarOpenFromCookie } from "~/lib/navigation";
import { ROLE_PERMISSIONS, TEAM_PERMISSIONS } from "~/lib/team-roles";

describe("portalNavFor", () => {
  it("shows everything to owners and hides pages a member may not open", () => {
    expect(portalNavFor(TEAM_PERMISSIONS)).toEqual(PORTAL_NAV);
    const member = portalNavFor(ROLE_PERMISSIONS.member).map((item) => item.to);
    expect(member).toContain("/gallery");
    expect(member).toContain("/logs");
    expect(member).not.toContain("/api-keys");
    expect(member).not.toContain("/billing");
    expect(member).not.toContain("/audit");
    expect(portalNavFor([]).map((item) => item.to)).toEqual(["/dashboard", "/servers", "/analytics", "/team", "/docs", "/settings"]);
  });
});

describe("sidebarOpenFromCookie", () => {
  it("is open unless the cookie says false", () => {
    expect(sidebarOpenFromCookie(null)).toBe(true);
    expect(sidebarOpenFromCookie("")).toBe(true);
    expect(sidebarOpenFromCookie("sidebar_state=false")).toBe(false);
    expect(sidebarOpenFromCookie("theme=dark;  sidebar_state=false; x=1")).toBe(false);
    expect(sidebarOpenFromCookie("sidebar_state=true")).toBe(true);
    expect(sidebarOpenFromCookie("other_sidebar_state=false")).toBe(true);
    expect(sidebarOpenFromCookie("sidebar_state=FALSE")).toBe(true);
  });
});
