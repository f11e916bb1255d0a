import { describe, expect, it } from "vitest";
import { API_KEY_QUERY_PARAMS, extractApiKey, requireActiveServer } from "~/services/api-keys/key-auth.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

const KEY = `sk_${"A1b2C3d4".repeat(5)}`;
const from = (headers: Record<string, string>, query = "") => extractApiKey(new Headers(headers), new URLSearchParams(query));
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString("base64")}`;

describe("extractApiKey: the key from wherever clients put it", () => {
  it("reads x-api-key, then Authorization with any scheme clients use, trimmed", () => {
    expect(from({ "x-api-key": `  ${KEY} ` })).toBe(KEY);
    for (const scheme of ["Bearer", "bearer", "Key", "TOKEN", "ApiKey"]) expect(from({ authorization: `${scheme}   ${KEY}` }), scheme).toBe(KEY);
    expect(from({ authorization: KEY })).toBe(KEY);
  });

  it("reads Basic credentials: the password, or a bare user", () => {
    expect(from({ authorization: basic(`stash:${KEY}`) })).toBe(KEY);
    expect(from({ authorization: basic(`${KEY}:`) })).toBe(KEY);
    expect(from({ authorization: basic(KEY) })).toBe(KEY);
    expect(from({ authorization: basic(`user:pa:ss`) })).toBe("pa:ss");
  });

  it("prefers x-api-key over Authorization over the query", () => {
    expect(from({ "x-api-key": "a", authorization: "Bearer b" }, "apiKey=c")).toBe("a");
    expect(from({ authorization: "Bearer b" }, "apiKey=c")).toBe("b");
  });

  it("reads the query parameters clients use, in order", () => {
    expect(API_KEY_QUERY_PARAMS).toEqual(["apiKey", "api_key", "apikey", "api", "key", "token"]);
    for (const name of API_KEY_QUERY_PARAMS) expect(from({}, `${name}=${KEY}`), name).toBe(KEY);
    expect(from({}, `token=t&api=a`)).toBe("a");
    expect(from({}, `APIKEY=${KEY}`)).toBeNull();
  });

  it("skips blank places and finds nothing when there is nothing", () => {
    expect(from({ "x-api-key": "  ", authorization: "Bearer   " }, "apiKey=&key=k")).toBe("k");
    expect(from({})).toBeNull();
    expect(from({ authorization: basic(":") })).toBeNull();
  });
});

describe("requireActiveServer", () => {
  it("refuses uploads to a server that is not active", () => {
    expect(() => requireActiveServer("active")).not.toThrow();
    for (const status of ["inactive", "maintenance", "ACTIVE", ""]) expect(refusal(() => requireActiveServer(status)).code).toBe("server_inactive");
  });
});
