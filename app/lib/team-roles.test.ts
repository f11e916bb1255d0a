import { describe, expect, it } from "vitest";
import { ASSIGNABLE_ROLES, isAssignableRole, isTeamPermission, PERMISSION_LABELS, ROLE_PERMISSIONS, TEAM_PERMISSIONS } from "~/lib/team-roles";
import { isRole } from "~/lib/roles";
import { isTheme } from "~/lib/theme";
import { isReportReason } from "~/lib/report-reasons";

describe("team roles", () => {
  it("give each role a subset of the catalogue, owners and admins all of it", () => {
    for (const permissions of Object.values(ROLE_PERMISSIONS)) for (const permission of permissions) expect(TEAM_PERMISSIONS).toContain(permission);
    expect(ROLE_PERMISSIONS.admin).toEqual(TEAM_PERMISSIONS);
    expect(Object.keys(PERMISSION_LABELS)).toEqual([...TEAM_PERMISSIONS]);
  });

  it("let no one be made owner except by transfer", () => {
    expect(ASSIGNABLE_ROLES).not.toContain("owner");
    expect(isAssignableRole("owner")).toBe(false);
    expect(isAssignableRole("member")).toBe(true);
  });
});

describe("value checks", () => {
  it("know exactly their own names, case and all", () => {
    const checks: Array<[(value: unknown) => boolean, string]> = [
      [isTeamPermission, "view_logs"],
      [isRole, "moderator"],
      [isTheme, "system"],
      [isReportReason, "copyright"],
      [isAssignableRole, "developer"],
    ];
    for (const [check, known] of checks) {
      expect(check(known), known).toBe(true);
      for (const value of [known.toUpperCase(), ` ${known}`, "", null, undefined, 1, [known], "constructor", "toString", "__proto__"]) expect(check(value), `${known}: ${String(value)}`).toBe(false);
    }
  });
});
