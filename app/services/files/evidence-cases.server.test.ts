import { describe, expect, it } from "vitest";
import type { UserId } from "~/lib/ids";
import { caseViewerOf, parseCaseNumber } from "~/services/files/evidence-cases.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

describe("evidence cases", () => {
  it("take case numbers of 1–40 letters, digits, _ . -, trimmed", () => {
    expect(parseCaseNumber(" LSPD-2026.001_a ")).toBe("LSPD-2026.001_a");
    expect(parseCaseNumber("x".repeat(40))).toHaveLength(40);
    for (const value of ["", "-1", ".hidden", "a b", "x".repeat(41), "sprawa-ż", 42, null]) {
      expect(refusal(() => parseCaseNumber(value)).details, String(value)).toEqual({ field: "case" });
    }
  });

  it("let members who manage members see every case", () => {
    expect(caseViewerOf("u1" as UserId, ["view_media", "manage_members"])).toEqual({ userId: "u1", seesAll: true });
    expect(caseViewerOf("u1" as UserId, ["view_media"])).toEqual({ userId: "u1", seesAll: false });
  });
});
