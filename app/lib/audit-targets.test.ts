import { describe, expect, it } from "vitest";
import { caseTarget, fileTarget, filesAudit, NAME_CHARS, requestTarget, storedFilesAudit } from "~/lib/audit-targets";

const file = (n: number) => ({ id: `id-${n}`, name: `shot-${n}.png` });

describe("filesAudit", () => {
  it("names one file by its name and id", () => {
    expect(filesAudit([file(1)])).toEqual({ target: "shot-1.png (id-1)", detail: { files: [file(1)] } });
  });

  it("names up to three files in full, after the count", () => {
    expect(filesAudit([file(1), file(2)]).target).toBe("2 files: shot-1.png (id-1), shot-2.png (id-2)");
    expect(filesAudit([file(1), file(2), file(3)]).target).toBe("3 files: shot-1.png (id-1), shot-2.png (id-2), shot-3.png (id-3)");
  });

  it("says how many more past three, and keeps every file in the detail", () => {
    const four = [file(1), file(2), file(3), file(4)];
    expect(filesAudit(four)).toEqual({ target: "4 files: shot-1.png (id-1), shot-2.png (id-2), shot-3.png (id-3) and 1 more", detail: { files: four } });
    const hundred = Array.from({ length: 100 }, (_, i) => file(i));
    expect(filesAudit(hundred).target).toMatch(/^100 files: shot-0\.png \(id-0\), shot-1\.png \(id-1\), shot-2\.png \(id-2\) and 97 more$/);
    expect(filesAudit(hundred).detail.files).toHaveLength(100);
  });

  it("keeps only id and name of what it is given", () => {
    expect(filesAudit([{ ...file(1), serverId: "srv" } as never]).detail).toEqual({ files: [file(1)] });
  });

  it("says so when there is nothing", () => {
    expect(filesAudit([])).toEqual({ target: "0 files", detail: { files: [] } });
  });
});

describe("fileTarget", () => {
  it("cuts a long name to one readable line; the detail keeps it whole", () => {
    const long = { id: "x", name: `${"a".repeat(200)}.png` };
    const target = fileTarget(long);
    expect(target).toBe(`${"a".repeat(NAME_CHARS - 1)}… (x)`);
    expect(filesAudit([long]).detail.files[0]!.name).toBe(long.name);
    expect(fileTarget({ id: "x", name: "a".repeat(NAME_CHARS) })).toBe(`${"a".repeat(NAME_CHARS)} (x)`);
  });

  it("names a blank name as unnamed, and keeps unicode and spaces inside", () => {
    expect(fileTarget({ id: "x", name: "   " })).toBe("unnamed (x)");
    expect(fileTarget({ id: "x", name: " évidence 2.png " })).toBe("évidence 2.png (x)");
  });
});

describe("other targets", () => {
  it("name stored rows by their original name, cases by number, refused requests by method and path", () => {
    expect(storedFilesAudit([{ id: "f1", original_filename: "a.png" }]).target).toBe("a.png (f1)");
    expect(caseTarget("XT-0020")).toBe("Case XT-0020");
    expect(requestTarget("post", "/api/billing/create-checkout")).toBe("POST /api/billing/create-checkout");
  });
});
