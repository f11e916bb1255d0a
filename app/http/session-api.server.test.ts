import { describe, expect, it } from "vitest";
import { readJsonBody } from "~/http/session-api.server";
import { asyncRefusal } from "../../tests/helpers/refusals.ts";

const post = (body: string | null) => new Request("http://stash.test/x", { method: "POST", body });

describe("readJsonBody", () => {
  it("reads any JSON value, an empty body as {}, and refuses text", async () => {
    expect(await readJsonBody(post("[1]"))).toEqual([1]);
    expect(await readJsonBody(post(" "))).toEqual({});
    expect(await asyncRefusal(() => readJsonBody(post("name=x")))).toMatchObject({ code: "invalid_request", message: "Request body must be JSON" });
  });
});
