import { describe, expect, it } from "vitest";
import { keptFileAnswer } from "~/http/kept-file-answers.server";
import { planFileResponse, servableOriginal } from "~/http/file-serving.server";
import type { ServedFileRecord } from "~/services/files/lookup.server";

const record = () =>
  ({
    size_bytes: "2048",
    sha256: "c".repeat(64),
    mime_type: "image/webp",
    created_at: new Date("2026-11-26T10:00:00Z"),
    original_filename: "shot.webp",
    filename: "k2j3.webp",
    is_public: true,
  }) as unknown as ServedFileRecord;

const pairs = (headers: Record<string, string>) => Object.entries(headers).flat();

describe("keptFileAnswer", () => {
  it("holds the exact headers the full path plans for a 200 and a 304", () => {
    const file = record();
    const answer = keptFileAnswer(file);
    const target = servableOriginal(file);
    expect(answer.etag).toBe(`"${"c".repeat(64)}"`);
    expect(answer.ok).toEqual(pairs(planFileResponse({ method: "GET", header: () => undefined }, target).headers));
    expect(answer.notModified).toEqual(pairs(planFileResponse({ method: "GET", header: (n) => (n === "if-none-match" ? answer.etag : undefined) }, target).headers));
    expect(answer.notModified).not.toContain("Content-Type");
  });

  it("is worked out once per record, and afresh for a new record", () => {
    const file = record();
    expect(keptFileAnswer(file)).toBe(keptFileAnswer(file));
    expect(keptFileAnswer(record())).not.toBe(keptFileAnswer(file));
  });
});
