import { describe, expect, it } from "vitest";
import { effectivePermissions, parseTeamName, permissionsFor } from "~/services/teams/teams.server";
import { TEAM_PERMISSIONS } from "~/lib/team-roles";
import { refusal } from "../../../tests/helpers/refusals.ts";

describe("parseTeamName", () => {
  it("trims a name of 1–60 characters", () => {
    expect(parseTeamName("  Los Santos PD ")).toBe("Los Santos PD");
    expect(parseTeamName("ż".repeat(60))).toHaveLength(60);
  });

  it("says what is wrong otherwise", () => {
    for (const value of ["", "   ", undefined, 42]) expect(refusal(() => parseTeamName(value)).message).toBe("Team name is required");
    expect(refusal(() => parseTeamName("n".repeat(61))).message).toBe("Team name must be at most 60 characters");
  });
});

describe("permissions", () => {
  it("give the owner everything whatever is stored, and others only known stored permissions, in catalogue order", () => {
    expect(effectivePermissions("owner", [])).toEqual([...TEAM_PERMISSIONS]);
    expect(effectivePermissions("member", ["view_logs", "sudo", "view_media", "view_media"])).toEqual(["view_media", "view_logs"]);
    expect(effectivePermissions("admin", [])).toEqual([]);
  });

  it("start a role with its defaults unless an admin chose some", () => {
    expect(permissionsFor("developer")).toEqual(["view_media", "manage_servers", "manage_keys", "view_logs"]);
    expect(permissionsFor("member", ["manage_billing"])).toEqual(["manage_billing"]);
    expect(permissionsFor("member", [])).toEqual([]);
    expect(permissionsFor("owner", [])).toEqual([...TEAM_PERMISSIONS]);
  });
});
