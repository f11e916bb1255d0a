import { describe, expect, it } from "vitest";
import { parseReport } from "~/services/files/file-reports.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

const report = (over: Record<string, unknown>) => ({ url: "https://cdn.example.com/f/abc123/mugshots/x1.png", reason: "personal_data", ip: "203.0.113.7", ...over });

describe("parseReport", () => {
  it("finds the file in a full URL, a path, or a URL with a query, and cleans the text", () => {
    expect(parseReport(report({ details: " <b>This is me</b> ", contact: " me@example.com " }))).toEqual({
      path: { serverId: "abc123", category: "mugshots", filename: "x1.png" },
      reason: "personal_data",
      details: "This is me",
      contact: "me@example.com",
    });
    expect(parseReport(report({ url: "/f/abc123/mugshots/x1.png" })).path.filename).toBe("x1.png");
    expect(parseReport(report({ url: "https://cdn.example.com/f/abc123/mugshots/x1.png?w=320#top" })).path.filename).toBe("x1.png");
    expect(parseReport(report({})).contact).toBeNull();
  });

  it("asks for an address, and one of a file here", () => {
    for (const url of [undefined, "", "   ", 42]) expect(refusal(() => parseReport(report({ url }))).message).toBe("Paste the address of the file you are reporting");
    for (const url of ["https://example.com/photo.png", "/f/abc123/x1.png", "/f/abc123/Mugs/x1.png", "/f/abc123/mugshots/x1.png/extra", "http://[::1"]) {
      expect(refusal(() => parseReport(report({ url }))), url).toMatchObject({ details: { field: "url" } });
    }
  });

  it("needs a known reason, details within 2000 characters and a valid contact address", () => {
    for (const reason of [undefined, "spam", "constructor", "toString"]) expect(refusal(() => parseReport(report({ reason }))).message).toBe("Choose a reason");
    expect(parseReport(report({ details: "d".repeat(2000) })).details).toHaveLength(2000);
    expect(refusal(() => parseReport(report({ details: "d".repeat(2001) }))).details).toEqual({ field: "details" });
    expect(refusal(() => parseReport(report({ contact: "not an address" }))).details).toEqual({ field: "contact" });
    expect(parseReport(report({ contact: "<i></i>" })).contact).toBeNull();
  });
});
