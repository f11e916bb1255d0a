import { describe, expect, it } from "vitest";
import { uniqueNames } from "~/services/files/file-archive.server";

describe("uniqueNames: entry names in a zip", () => {
  it("numbers a repeated name before its extension, case-insensitively", () => {
    expect(uniqueNames(["evidence.png", "evidence.png", "Evidence.PNG", "notes"])).toEqual(["evidence.png", "evidence (2).png", "Evidence (3).PNG", "notes"]);
    expect(uniqueNames(["notes", "notes"])).toEqual(["notes", "notes (2)"]);
    expect(uniqueNames(["a.tar.gz", "a.tar.gz"])).toEqual(["a.tar.gz", "a.tar (2).gz"]);
  });

  it("replaces separators, control characters and what Windows refuses, and drops leading dots", () => {
    expect(uniqueNames(["../../etc/passwd", "C:\\x\\y.png", 'a<b>c:d"e|f?g*h.txt', "tab\there\u0000.png", ".env", "..."])).toEqual([
      "_.._etc_passwd",
      "C__x_y.png",
      "a_b_c_d_e_f_g_h.txt",
      "tab_here_.png",
      "env",
      "file",
    ]);
  });

  it("names a nameless file `file`, and keeps unicode names", () => {
    expect(uniqueNames(["", "", "zdjęcie 📷.jpg"])).toEqual(["file", "file (2)", "zdjęcie 📷.jpg"]);
  });

  it("never gives two entries the same name, even when a file is already called like a numbered copy", () => {
    const names = uniqueNames(["a.png", "a.png", "a (2).png", "a (2).png"]);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(4);
    expect(names.slice(0, 2)).toEqual(["a.png", "a (2).png"]);
  });

  it("keeps order and count for many duplicates", () => {
    const names = uniqueNames(Array.from({ length: 1000 }, () => "shot.jpg"));
    expect(names).toHaveLength(1000);
    expect(new Set(names).size).toBe(1000);
    expect(names[999]).toBe("shot (1000).jpg");
  });
});
