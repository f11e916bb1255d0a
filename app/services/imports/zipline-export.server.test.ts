import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { parseZiplineExport, ziplineBaseUrl } from "~/services/imports/zipline-export.server";
import { refusal } from "../../../tests/helpers/refusals";

const exported = JSON.parse(fs.readFileSync("tests/fixtures/imports/zipline-export-v3.json", "utf8"));

describe("parseZiplineExport", () => {
  it("lists each file at the instance's raw route with its original name, size and date", () => {
    const parsed = parseZiplineExport(exported, "https://i.example.com");
    expect(parsed.items).toEqual([
      { ref: "https://i.example.com/r/aB3dE9.png", filename: "mugshot_tommy.png", postedAt: new Date("2023-08-14T19:22:05.120Z"), sizeBytes: 20481 },
      { ref: "https://i.example.com/r/Zx81Qk.jpg", filename: "evidence_4471.jpg", postedAt: new Date("2023-09-02T08:01:44.900Z"), sizeBytes: 73312 },
      { ref: "https://i.example.com/r/gone00.png", filename: "removed.png", postedAt: new Date("2023-09-05T08:01:44.900Z"), sizeBytes: 512 },
    ]);
  });

  it("leaves out password-protected files and counts them", () => {
    const copy = structuredClone(exported);
    copy.files.cl9x1file0002a.password = "$argon2id$v=19$…";
    const parsed = parseZiplineExport(copy, "https://i.example.com", "/u/");
    expect(parsed.passwordProtected).toBe(1);
    expect(parsed.items.map((i) => i.ref)).toEqual(["https://i.example.com/u/aB3dE9.png", "https://i.example.com/u/gone00.png"]);
  });

  it("refuses another export version and something that is not an export", () => {
    expect(refusal(() => parseZiplineExport({ ...exported, versions: { export: "4" } }, "https://i.example.com")).message).toMatch(/version 4 is not supported/);
    expect(refusal(() => parseZiplineExport({ files: [] }, "https://i.example.com")).code).toBe("invalid_export");
  });
});

describe("ziplineBaseUrl", () => {
  it("keeps the origin and path without a trailing slash, and refuses what is not a web address", () => {
    expect(ziplineBaseUrl(" https://i.example.com/zipline/?x=1 ")).toBe("https://i.example.com/zipline");
    expect(refusal(() => ziplineBaseUrl("i.example.com")).message).toMatch(/address of your Zipline instance/);
    expect(refusal(() => ziplineBaseUrl("ftp://i.example.com")).message).toMatch(/must start with https/);
  });
});
