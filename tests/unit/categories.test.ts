import { describe, expect, it } from "vitest";
import {
  canonicalCategory,
  categoryGroupKeys,
  categoryLabel,
  categorySlug,
  exactCategoryOptions,
  groupedCategoryOptions,
  NAMED_CATEGORIES,
} from "../../app/lib/categories.ts";

describe("the category catalogue", () => {
  it("names the categories scripts send, `other` last", () => {
    expect(NAMED_CATEGORIES.map((c) => c.name)).toEqual([
      "phone_photos",
      "police_evidence",
      "security_camera",
      "screenshots",
      "phone_videos",
      "phone_audio",
      "bodycam",
      "mugshots",
      "documents",
      "other",
    ]);
    const keys = NAMED_CATEGORIES.flatMap((c) => [c.name, ...c.aliases]);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(categorySlug(key)).toBe(key);
  });

  it("folds any text into the stored slug", () => {
    expect(categorySlug("  Phone Photos ")).toBe("phone_photos");
    expect(categorySlug("../etc/passwd")).toBe("etc_passwd");
    expect(categorySlug("")).toBe("other");
    expect(categorySlug("x".repeat(60))).toHaveLength(40);
  });

  it("groups aliases and -/_ spellings, keeps the spec's labels, title-cases the rest", () => {
    expect(canonicalCategory("phone_camera")).toBe("phone_photos");
    expect(canonicalCategory("Phone-Photos")).toBe("phone_photos");
    expect(canonicalCategory("screenshot")).toBe("screenshots");
    expect(canonicalCategory("mdt-mugshot")).toBe("mdt_mugshot");
    expect(categoryGroupKeys("screenshot")).toEqual(["screenshots", "screenshot"]);
    expect(categoryGroupKeys("mdt_mugshot")).toEqual(["mdt_mugshot"]);
    expect(categoryLabel("phone_photos")).toBe("Phone Camera");
    expect(categoryLabel("police_evidence")).toBe("Police Evidence");
    expect(categoryLabel("security_camera")).toBe("Security Camera");
    expect(categoryLabel("other")).toBe("Other");
    expect(categoryLabel("mdt_mugshot")).toBe("Mdt Mugshot");
  });

  it("offers grouped options for filters and exact ones for pickers", () => {
    const counts = [
      { category: "screenshot", files: 2 },
      { category: "screenshots", files: 3 },
      { category: "zz_rare", files: 1 },
      { category: "mdt_mugshot", files: 4 },
    ];
    const grouped = groupedCategoryOptions(counts, "parking");
    expect(grouped.find((o) => o.value === "screenshots")).toEqual({ value: "screenshots", label: "Screenshot", files: 5 });
    expect(grouped.slice(-4).map((o) => o.value)).toEqual(["mdt_mugshot", "zz_rare", "parking", "other"]);
    const exact = exactCategoryOptions(counts);
    expect(exact.filter((o) => o.label === "Screenshot").map((o) => [o.value, o.files])).toEqual([
      ["screenshots", 3],
      ["screenshot", 2],
    ]);
    expect(exact.at(-1)!.value).toBe("other");
  });
});
