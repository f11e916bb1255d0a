import { describe, expect, it } from "vitest";
import { hasCrossReference, PDF_TAIL_BYTES } from "~/services/media/pdf-metadata.server";

describe("hasCrossReference", () => {
  it("looks for startxref in the last 4 KB only", () => {
    expect(hasCrossReference(Buffer.from("%PDF-1.7\n...\nstartxref\n1234\n%%EOF"))).toBe(true);
    expect(hasCrossReference(Buffer.from("%PDF-1.7 truncated"))).toBe(false);
    expect(hasCrossReference(Buffer.alloc(0))).toBe(false);
    const early = Buffer.concat([Buffer.from("startxref"), Buffer.alloc(PDF_TAIL_BYTES)]);
    expect(hasCrossReference(early)).toBe(false);
    const atEdge = Buffer.concat([Buffer.alloc(100), Buffer.from("startxref"), Buffer.alloc(PDF_TAIL_BYTES - 9)]);
    expect(hasCrossReference(atEdge)).toBe(true);
  });
});
