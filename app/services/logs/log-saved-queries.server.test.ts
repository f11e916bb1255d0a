import { describe, expect, it } from "vitest";
import { savedQueryOf } from "~/services/logs/log-saved-queries.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

describe("savedQueryOf", () => {
  it("keeps only the filters, in a stable order, without blanks or the cursor", () => {
    expect(savedQueryOf("?before=abc&q=robbery&level=warn&dataset=&meta=a=1&meta=b=2")).toBe("level=warn&q=robbery&meta=a%3D1&meta=b%3D2");
  });

  it("refuses a search without a filter, and one a search would refuse", () => {
    expect(refusal(() => savedQueryOf("?before=abc")).message).toBe("Set at least one filter before saving a search");
    expect(refusal(() => savedQueryOf("")).code).toBe("invalid_request");
    expect(refusal(() => savedQueryOf("level=loud")).message).toBe("level must be one of trace, debug, info, warn, error, fatal");
  });
});
