import { describe, expect, it } from "vitest";
import { isUuid, newServerId, randomString, sha256Hex } from "~/services/platform/ids.server";

describe("randomString", () => {
  it("has the length asked for, from the alphabet asked for", () => {
    expect(randomString(43)).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(randomString(0)).toBe("");
    expect(randomString(1000, "ab")).toMatch(/^[ab]{1000}$/);
    expect(randomString(5, "x")).toBe("xxxxx");
  });

  it("uses every character of an alphabet that does not divide 256, roughly evenly", () => {
    const counts = new Map<string, number>();
    for (const c of randomString(62_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Unbiased sampling: each of 62 characters near 1,000; modulo bias would push the first eight toward 1,250.
    for (const n of counts.values()) expect(n).toBeGreaterThan(800);
    for (const n of counts.values()) expect(n).toBeLessThan(1200);
  });

  it("never repeats a token", () => {
    expect(new Set(Array.from({ length: 1000 }, () => randomString(22))).size).toBe(1000);
  });
});

describe("server ids, hashes and uuids", () => {
  it("makes 12-character lower-case server ids fit for a path", () => {
    expect(newServerId()).toMatch(/^[0-9a-z]{12}$/);
  });

  it("hashes text and bytes alike", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("sk_test")).toBe(sha256Hex(Buffer.from("sk_test")));
    expect(sha256Hex("é")).toBe(sha256Hex(Buffer.from([0xc3, 0xa9])));
  });

  it("takes a row id only in the UUID shape, any case, nothing around it", () => {
    expect(isUuid("0b7e6c1a-4b1f-4c2a-9d7e-1a2b3c4d5e6f")).toBe(true);
    expect(isUuid("0B7E6C1A-4B1F-4C2A-9D7E-1A2B3C4D5E6F")).toBe(true);
    for (const bad of ["", "0b7e6c1a4b1f4c2a9d7e1a2b3c4d5e6f", " 0b7e6c1a-4b1f-4c2a-9d7e-1a2b3c4d5e6f", "0b7e6c1a-4b1f-4c2a-9d7e-1a2b3c4d5e6g", "0b7e6c1a-4b1f-4c2a-9d7e-1a2b3c4d5e6f\n", "1; DROP TABLE files"]) {
      expect(isUuid(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
