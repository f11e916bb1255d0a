import { describe, expect, it } from "vitest";
import { parseMemberAccess } from "~/services/teams/team-members.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

describe("parseMemberAccess", () => {
  it("takes an assignable role and known permissions, one or many", () => {
    expect(parseMemberAccess({ role: "developer" })).toEqual({ role: "developer", permissions: undefined });
    expect(parseMemberAccess({ role: "member", permissions: "view_logs" })).toEqual({ role: "member", permissions: ["view_logs"] });
    expect(parseMemberAccess({ role: "admin", permissions: [] })).toEqual({ role: "admin", permissions: [] });
  });

  it("refuses the owner role, unknown roles and unknown permissions", () => {
    for (const role of ["owner", "Admin", "", undefined, "constructor"]) expect(refusal(() => parseMemberAccess({ role })).message).toBe("Role must be admin, developer or member");
    expect(refusal(() => parseMemberAccess({ role: "member", permissions: ["view_logs", "root"] })).message).toBe("Unknown permission: root");
    expect(refusal(() => parseMemberAccess({ role: "member", permissions: [{}] })).message).toBe("Unknown permission: [object Object]");
  });
});
