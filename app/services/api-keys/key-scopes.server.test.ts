import { describe, expect, it } from "vitest";
import {
  addressInScope,
  assertAddressInScope,
  assertCategoryInScope,
  parseAddressScope,
  parseCategoryScope,
  parseKeyScopes,
  parseMaxFileMb,
  type KeyScopes,
} from "~/services/api-keys/key-scopes.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

const scopes = (over: Partial<KeyScopes>): KeyScopes => ({ categories: null, maxFileBytes: null, addresses: null, ...over });

describe("parseCategoryScope", () => {
  it("reads a list or comma/space separated text, lower-cased, without blanks or duplicates", () => {
    expect(parseCategoryScope(" Mugshots, phone_*  police-evidence,mugshots ")).toEqual(["mugshots", "phone_*", "police-evidence"]);
    expect(parseCategoryScope(["Screenshots", " ", "screenshots"])).toEqual(["screenshots"]);
    expect(parseCategoryScope("*")).toEqual(["*"]);
  });

  it("is null (any category) when empty", () => {
    for (const value of [undefined, null, "", " , ", []]) expect(parseCategoryScope(value)).toBeNull();
  });

  it("refuses more than 20 entries and anything that is not a slug with an optional final *", () => {
    const many = Array.from({ length: 21 }, (_, i) => `c${i}`);
    expect(parseCategoryScope(many.slice(0, 20))).toHaveLength(20);
    expect(refusal(() => parseCategoryScope(many)).message).toBe("At most 20 categories per key");
    for (const bad of ["a*b", "**", "*x", "../x", "café", "x".repeat(41)]) {
      expect(refusal(() => parseCategoryScope(bad)), bad).toMatchObject({ code: "invalid_request", details: { field: "categories" } });
    }
  });
});

describe("parseAddressScope", () => {
  it("takes IPv4 and IPv6 addresses and CIDR ranges", () => {
    expect(parseAddressScope("203.0.113.7, 10.0.0.0/8\n2001:db8::/32 ::1")).toEqual(["203.0.113.7", "10.0.0.0/8", "2001:db8::/32", "::1"]);
    expect(parseAddressScope(["0.0.0.0/0"])).toEqual(["0.0.0.0/0"]);
    expect(parseAddressScope("")).toBeNull();
  });

  it("refuses host names, bad prefixes and malformed ranges", () => {
    for (const bad of ["example.com", "10.0.0.0/33", "2001:db8::/129", "10.0.0.0/", "10.0.0.0/8/8", "/8", "10.0.0.0/-1", "10.0.0.0/08x", "256.1.1.1", "10.0.0.0/1234"]) {
      expect(refusal(() => parseAddressScope(bad)), bad).toMatchObject({ code: "invalid_request", details: { field: "allowed_ips" } });
    }
    expect(refusal(() => parseAddressScope(Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`))).message).toBe("At most 20 addresses per key");
  });
});

describe("parseMaxFileMb", () => {
  it("turns whole or decimal MB into bytes; blank lifts the limit", () => {
    expect(parseMaxFileMb("5")).toBe(5 * 1024 * 1024);
    expect(parseMaxFileMb(" 0.5 ")).toBe(512 * 1024);
    expect(parseMaxFileMb(10_240)).toBe(10_240 * 1024 * 1024);
    for (const value of [null, undefined, ""]) expect(parseMaxFileMb(value)).toBeNull();
  });

  it("refuses zero, negatives, more than 10 GB and text", () => {
    for (const value of [0, -1, 10_240.5, "abc", "Infinity", Number.NaN, "1e9"]) {
      expect(refusal(() => parseMaxFileMb(value)), String(value)).toMatchObject({ details: { field: "max_file_mb" } });
    }
  });
});

describe("parseKeyScopes", () => {
  it("touches only the limits named, and null or blank lifts one", () => {
    expect(parseKeyScopes({})).toEqual({});
    expect(parseKeyScopes({ categories: "a", max_file_mb: null, allowed_ips: "" })).toEqual({ categories: ["a"], maxFileBytes: null, addresses: null });
  });
});

describe("scope checks", () => {
  it("let a key write only its categories, or those starting with a prefix", () => {
    const limited = scopes({ categories: ["mugshots", "phone_*"] });
    expect(() => assertCategoryInScope(limited, "mugshots")).not.toThrow();
    expect(() => assertCategoryInScope(limited, "phone_photos")).not.toThrow();
    expect(() => assertCategoryInScope(limited, "phone_")).not.toThrow();
    expect(refusal(() => assertCategoryInScope(limited, "phone"))).toMatchObject({ code: "permission_denied", details: { scope: "categories", allowed: ["mugshots", "phone_*"] } });
    expect(refusal(() => assertCategoryInScope(limited, "mugshots2")).code).toBe("permission_denied");
    expect(() => assertCategoryInScope(scopes({ categories: ["*"] }), "anything")).not.toThrow();
    expect(() => assertCategoryInScope(scopes({}), "anything")).not.toThrow();
  });

  it("let a key be used only from its addresses, IPv4-mapped IPv6 included", () => {
    const limited = scopes({ addresses: ["203.0.113.7", "10.0.0.0/8", "2001:db8::/32"] });
    expect(addressInScope(limited, "203.0.113.7")).toBe(true);
    expect(addressInScope(limited, "::ffff:10.20.30.40")).toBe(true);
    expect(addressInScope(limited, "2001:db8:1::5")).toBe(true);
    expect(addressInScope(limited, "203.0.113.8")).toBe(false);
    expect(addressInScope(limited, "11.0.0.1")).toBe(false);
    expect(addressInScope(limited, "2001:db9::1")).toBe(false);
    expect(addressInScope(limited, "not an ip")).toBe(false);
    expect(addressInScope(limited, "")).toBe(false);
    expect(addressInScope(scopes({}), "not an ip")).toBe(true);
    expect(refusal(() => assertAddressInScope(limited, "198.51.100.1"))).toMatchObject({ code: "permission_denied", details: { scope: "allowed_ips", ip: "198.51.100.1" } });
  });
});
