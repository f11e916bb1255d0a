import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, normaliseSearch, parseGallerySort } from "~/services/files/gallery.server";

const ID = "0b7e6c1a-4b1f-4c2a-9d7e-1a2b3c4d5e6f";
const AT = "2026-11-22 17:30:38.123456+00";
const raw = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString("base64url");

describe("gallery sorts and search text", () => {
  it("know four sorts, newest first by default", () => {
    expect(parseGallerySort("largest")).toBe("largest");
    for (const value of [null, undefined, "", "LARGEST", "random", "constructor"]) expect(parseGallerySort(value)).toBe("newest");
  });

  it("trim search text and bound it to 200 characters", () => {
    expect(normaliseSearch("  niko  ")).toBe("niko");
    expect(normaliseSearch(null)).toBe("");
    expect(normaliseSearch("ż".repeat(300))).toHaveLength(200);
  });
});

describe("gallery cursors", () => {
  it("round-trip each sort's key, keeping PostgreSQL's microseconds", () => {
    expect(decodeCursor(encodeCursor({ at: AT, id: ID }), "newest")).toEqual({ at: AT, id: ID });
    expect(decodeCursor(encodeCursor({ at: "2026-11-22T17:30:38Z", id: ID }, "oldest"), "oldest")).toEqual({ at: "2026-11-22T17:30:38Z", id: ID });
    expect(decodeCursor(encodeCursor({ at: "123456789012345", id: ID }, "largest"), "largest")).toEqual({ at: "123456789012345", id: ID });
    expect(decodeCursor(encodeCursor({ at: "zdjęcie, \"quoted\".png", id: ID }, "name"), "name")).toEqual({ at: 'zdjęcie, "quoted".png', id: ID });
  });

  it("read a cursor of another sort, or no cursor, as the start", () => {
    expect(decodeCursor(encodeCursor({ at: AT, id: ID }, "newest"), "oldest")).toBeNull();
    expect(decodeCursor(encodeCursor({ at: "5", id: ID }, "largest"), "name")).toBeNull();
    expect(decodeCursor(null)).toBeNull();
    expect(decodeCursor("")).toBeNull();
  });

  it("read a tampered cursor as the start instead of failing the page", () => {
    for (const value of ["not base64 at all!!", raw({ at: AT, id: ID }), raw([AT]), raw([AT, "not-a-uuid"]), raw(["1; DROP TABLE files", ID]), raw(["newest", AT, ID, "extra"]), raw([5, ID])]) {
      expect(decodeCursor(value, "newest"), value).toBeNull();
    }
    expect(decodeCursor(raw(["largest", "12.5", ID]), "largest")).toBeNull();
    expect(decodeCursor(raw(["largest", "1234567890123456", ID]), "largest")).toBeNull();
    expect(decodeCursor(raw(["name", "n".repeat(1001), ID]), "name")).toBeNull();
    expect(decodeCursor(raw(["name", "n".repeat(1000), ID]), "name")).toEqual({ at: "n".repeat(1000), id: ID });
  });
});
