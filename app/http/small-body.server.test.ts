import { describe, expect, it } from "vitest";
import { readSmallBody } from "~/http/small-body.server";
import { asyncRefusal } from "../../tests/helpers/refusals.ts";

const post = (body: string | null, headers: Record<string, string> = {}) => new Request("http://stash.test/x", { method: "POST", body, headers });

describe("readSmallBody", () => {
  it("reads a JSON object, a url-encoded form, and nothing as {}", async () => {
    expect(await readSmallBody(post('{"expires_in":60}'))).toEqual({ expires_in: 60 });
    expect(await readSmallBody(post("expires_in=60&category=a+b", { "content-type": "application/x-www-form-urlencoded; charset=UTF-8" }))).toEqual({
      expires_in: "60",
      category: "a b",
    });
    expect(await readSmallBody(post(null))).toEqual({});
    expect(await readSmallBody(post("  \n"))).toEqual({});
  });

  it("refuses JSON that is not an object, and text that is not JSON", async () => {
    for (const body of ["[1,2]", "null", '"text"', "42", "category=x", "{broken"]) {
      expect(await asyncRefusal(() => readSmallBody(post(body))), body).toMatchObject({ code: "invalid_request", message: "The body must be a JSON object" });
    }
  });

  it("refuses more than 64 KB, declared or sent", async () => {
    const big = JSON.stringify({ x: "a".repeat(64 * 1024) });
    expect(await asyncRefusal(() => readSmallBody(post("{}", { "content-length": String(64 * 1024 + 1) })))).toMatchObject({ message: "The request body is too large" });
    expect(await asyncRefusal(() => readSmallBody(post(big)))).toMatchObject({ message: "The request body is too large" });
  });
});
