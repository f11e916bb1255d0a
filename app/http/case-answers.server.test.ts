import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { caseBody, caseZipResponse } from "~/http/case-answers.server";
import type { EvidenceCase } from "~/services/files/evidence-cases.server";

const evidenceCase = {
  id: "c1",
  serverId: "srv1",
  number: "LSPD/2026 #1",
  title: "Fleeca",
  notes: "",
  status: "open",
  createdAt: new Date("2026-11-26T10:00:00Z"),
  closedAt: null,
} as unknown as EvidenceCase;

describe("case answers", () => {
  it("show a case with the API's field names and any extra fields", () => {
    expect(caseBody(evidenceCase, { files: 3 })).toEqual({
      case: { id: "c1", number: "LSPD/2026 #1", title: "Fleeca", notes: "", status: "open", created_at: evidenceCase.createdAt, closed_at: null, files: 3 },
    });
  });

  it("name the export zip after the case, with only safe characters", () => {
    const response = caseZipResponse(evidenceCase, Readable.from([]), () => {});
    expect(response.headers.get("Content-Disposition")).toContain("case-LSPD_2026__1.zip");
    expect(response.headers.get("Content-Type")).toBe("application/zip");
  });
});
