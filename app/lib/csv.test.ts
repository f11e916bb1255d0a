import { describe, expect, it } from "vitest";
import { csvCell } from "~/lib/csv";

describe("csvCell", () => {
  it("writes plain text as it is, and nothing for null or undefined", () => {
    expect(csvCell("key.create")).toBe("key.create");
    expect(csvCell("Zoë 🚓")).toBe("Zoë 🚓");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell("")).toBe("");
  });

  it("quotes a cell with a comma, a quote or a line break, doubling quotes", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    expect(csvCell("cr\rhere")).toBe('"cr\rhere"');
  });

  it("writes numbers as numbers and objects as JSON, quoted as needed", () => {
    expect(csvCell(200)).toBe("200");
    expect(csvCell(0)).toBe("0");
    expect(csvCell({ plate: "ABC", n: 1 })).toBe('"{""plate"":""ABC"",""n"":1}"');
    expect(csvCell(["a"])).toBe('"[""a""]"');
  });

  it("never lets a spreadsheet run a cell as a formula", () => {
    expect(csvCell("=HYPERLINK(\"http://evil\")")).toBe("\"'=HYPERLINK(\"\"http://evil\"\")\"");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1+1")).toBe("'\t=1+1");
    expect(csvCell("\r=1+1")).toBe("\"'\r=1+1\"");
    expect(csvCell(-5)).toBe("'-5");
    expect(csvCell("a=b")).toBe("a=b");
  });
});
