import { describe, expect, it } from "vitest";
import { isWellFormedApiKey, normalisePermissions } from "~/services/api-keys/keys.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

const KEY = `sk_${"A1b2C3d4".repeat(5)}`;

describe("key shapes and permissions", () => {
  it("knows the keys we issue, and leaves room for longer ones", () => {
    expect(isWellFormedApiKey(KEY)).toBe(true);
    expect(isWellFormedApiKey(`sk_${"a".repeat(32)}`)).toBe(true);
    expect(isWellFormedApiKey(`sk_${"a".repeat(64)}`)).toBe(true);
    for (const bad of [`sk_${"a".repeat(31)}`, `sk_${"a".repeat(65)}`, `SK_${"a".repeat(40)}`, `sk_${"a".repeat(39)}-`, ` ${KEY}`, ""]) {
      expect(isWellFormedApiKey(bad), bad).toBe(false);
    }
  });

  it("orders and de-duplicates permissions, and an empty list means upload and read", () => {
    expect(normalisePermissions([" DELETE", "upload", "upload", "logs:write"])).toEqual(["upload", "delete", "logs:write"]);
    expect(normalisePermissions([])).toEqual(["upload", "read"]);
    expect(normalisePermissions(undefined)).toEqual(["upload", "read"]);
    expect(refusal(() => normalisePermissions(["read", "admin"])).message).toBe('Unknown permission "admin" (use upload, read, delete, logs:write)');
  });
});
