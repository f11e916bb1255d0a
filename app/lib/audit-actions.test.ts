import { describe, expect, it } from "vitest";
import { auditActionLabel } from "~/lib/audit-actions";

describe("auditActionLabel", () => {
  it("labels known actions and shows unknown ones as recorded", () => {
    expect(auditActionLabel("key.create")).toBe("Created an API key");
    expect(auditActionLabel("something.new")).toBe("something.new");
  });
});
