import { describe, expect, it } from "vitest";
import {
  canonicalCategory,
  categoryGroupKeys,
  categoryLabel,
  categorySlug,
  exactCategoryOptions,
  fileCountText,
  groupedCategoryOptions,
  NAMED_CATEGORIES,
  namedCategory,
} from "~/lib/categories";

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
});

describe("categorySlug", () => {
  it("folds any text into the stored slug", () => {
    expect(categorySlug("  Phone Photos ")).toBe("phone_photos");
    expect(categorySlug("../etc/passwd")).toBe("etc_passwd");
    expect(categorySlug("")).toBe("other");
    expect(categorySlug("x".repeat(60))).toHaveLength(40);
  });

  it("reads nothing, blanks and punctuation alone as `other`", () => {
    expect(categorySlug(null)).toBe("other");
    expect(categorySlug(undefined)).toBe("other");
    expect(categorySlug("   ")).toBe("other");
    expect(categorySlug("!!!---___")).toBe("other");
  });

  it("keeps - and _ inside, collapses runs of anything else to one _", () => {
    expect(categorySlug("police-evidence")).toBe("police-evidence");
    expect(categorySlug("a  ..  b")).toBe("a_b");
    expect(categorySlug("MDT: Mugshot #1")).toBe("mdt_mugshot_1");
  });

  it("turns non-ASCII letters into separators, never into the URL", () => {
    expect(categorySlug("Café Photos")).toBe("caf_photos");
    expect(categorySlug("фото")).toBe("other");
    expect(categorySlug("📷 camera")).toBe("camera");
  });

  it("never ends in a separator after cutting to 40 characters", () => {
    const slug = categorySlug(`${"a".repeat(39)} b`);
    expect(slug).toBe("a".repeat(39));
    expect(categorySlug(`${"a".repeat(38)}__bbb`)).toBe("a".repeat(38));
  });
});

describe("category groups and labels", () => {
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

  it("finds the named category behind any spelling, and none for an own one", () => {
    expect(namedCategory("VOICE-NOTES")?.name).toBe("phone_audio");
    expect(namedCategory("body_cam")?.label).toBe("Bodycam");
    expect(namedCategory("parking")).toBeUndefined();
    expect(categoryLabel("")).toBe("Other");
  });

  it("title-cases an own category once per word, however many separators it had", () => {
    expect(categoryLabel("car__wash")).toBe("Car Wash");
    expect(categoryLabel("car-wash-2")).toBe("Car Wash 2");
  });

  it("shows capped counts with a plus", () => {
    expect(fileCountText({ value: "x", label: "X", files: 12 })).toBe("12");
    expect(fileCountText({ value: "x", label: "X", files: 10_000, capped: true })).toBe("10000+");
  });
});

describe("category options", () => {
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

  it("lists every named category even with no files, and `all` adds nothing", () => {
    const options = groupedCategoryOptions([], "all");
    expect(options.map((o) => o.value)).toEqual(NAMED_CATEGORIES.map((c) => c.name));
    expect(options.every((o) => o.files === 0)).toBe(true);
  });

  it("marks a group capped when any of its spellings was", () => {
    const grouped = groupedCategoryOptions([
      { category: "mugshot", files: 10_000, capped: true },
      { category: "mugshots", files: 5 },
    ]);
    expect(grouped.find((o) => o.value === "mugshots")).toEqual({ value: "mugshots", label: "Mugshot", files: 10_005, capped: true });
  });

  it("orders own categories busiest first, ties by name", () => {
    const own = (options: { value: string }[]) => options.map((o) => o.value).filter((v) => ["b_cat", "a_cat", "c_cat"].includes(v));
    const counts = [
      { category: "b_cat", files: 1 },
      { category: "c_cat", files: 7 },
      { category: "a_cat", files: 1 },
    ];
    expect(own(groupedCategoryOptions(counts))).toEqual(["c_cat", "a_cat", "b_cat"]);
    expect(own(exactCategoryOptions(counts))).toEqual(["c_cat", "a_cat", "b_cat"]);
  });
});
