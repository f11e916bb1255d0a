import { describe, expect, it } from "vitest";
import type { TeamId } from "~/lib/ids";
import { adminCheckMessage, safeRedirectPath, teamPermissionMessage } from "~/http/guards.server";

describe("safeRedirectPath: where to go after signing in", () => {
  it("keeps a path of this site, with its query and hash", () => {
    expect(safeRedirectPath("/gallery?category=mugshots#top")).toBe("/gallery?category=mugshots#top");
    expect(safeRedirectPath("/")).toBe("/");
  });

  it("falls back for other sites, protocol-relative and backslash tricks, and non-strings", () => {
    for (const value of ["//evil.example", "/\\evil.example", "https://evil.example/x", "javascript:alert(1)", "dashboard", "", null, undefined]) {
      expect(safeRedirectPath(value), String(value)).toBe("/dashboard");
    }
    expect(safeRedirectPath(new File([], "x"))).toBe("/dashboard");
    expect(safeRedirectPath("//x", "/settings")).toBe("/settings");
  });
});

describe("guard messages", () => {
  it("name the permission a member lacks in words", () => {
    const team = { id: "t" as TeamId, name: "LSPD", role: "member" as const, permissions: [] };
    expect(teamPermissionMessage(team, "manage_keys")).toBe('Your role in LSPD does not allow this (it needs the "Manage API keys" permission).');
  });

  it("say why an admin check failed, for errors and anything else thrown", () => {
    expect(adminCheckMessage(new Error("timeout"))).toBe("Failed to verify admin permissions: timeout");
    expect(adminCheckMessage("nope")).toBe("Failed to verify admin permissions: nope");
    expect(adminCheckMessage(undefined)).toBe("Failed to verify admin permissions: undefined");
  });
});
