import { describe, expect, it } from "vitest";
import { parseFileReference } from "~/http/file-downloads.server";

describe("parseFileReference: the ?file= of /api/download", () => {
  const expected = { serverId: "abc123", category: "phone_photos", filename: "k2j3.webp" };

  it("takes a file view's path, its /f/ path or its full URL, with or without a query", () => {
    expect(parseFileReference("abc123/phone_photos/k2j3.webp")).toEqual(expected);
    expect(parseFileReference("/f/abc123/phone_photos/k2j3.webp")).toEqual(expected);
    expect(parseFileReference("f/abc123/phone_photos/k2j3.webp")).toEqual(expected);
    expect(parseFileReference(" https://cdn.example.com/f/abc123/phone_photos/k2j3.webp?w=320 ")).toEqual(expected);
    expect(parseFileReference("HTTP://localhost:3000/f/abc123/phone_photos/k2j3.webp")).toEqual(expected);
  });

  it("refuses nothing, wrong shapes and anything that could climb out of a folder", () => {
    for (const value of [null, "", "abc123/k2j3.webp", "abc123/phone_photos/k2j3.webp/extra", "ABC123/phone_photos/x.png", "abc123/Phone/x.png", "abc/cat/../x.png", "abc/cat/.hidden", "abc/cat/a b.png", "abc/cat/%2e%2e"]) {
      expect(parseFileReference(value), String(value)).toBeNull();
    }
  });

  it("holds ids, categories and names to their lengths", () => {
    expect(parseFileReference(`${"a".repeat(40)}/${"c".repeat(40)}/${"f".repeat(200)}`)).not.toBeNull();
    expect(parseFileReference(`${"a".repeat(41)}/cat/x.png`)).toBeNull();
    expect(parseFileReference(`abc/${"c".repeat(41)}/x.png`)).toBeNull();
    expect(parseFileReference(`abc/cat/${"f".repeat(201)}`)).toBeNull();
  });
});
