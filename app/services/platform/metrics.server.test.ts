import { describe, expect, it } from "vitest";
import { routeLabel } from "~/services/platform/metrics.server";

describe("routeLabel: a low-cardinality label per request path", () => {
  it("folds files, assets and each API section", () => {
    expect(routeLabel("/f/abc/cat/x.png")).toBe("/f/*");
    expect(routeLabel("/assets/entry-AbC123.js")).toBe("/assets/*");
    expect(routeLabel("/api/upload")).toBe("/api/upload");
    expect(routeLabel("/api/upload/presigned/tok")).toBe("/api/upload/*");
    expect(routeLabel("/api/files/0b7e6c1a-4b1f-4c2a-9d7e-1a2b3c4d5e6f")).toBe("/api/files/*");
    expect(routeLabel("/metrics")).toBe("/metrics");
  });

  it("calls every page one label, however many paths there are", () => {
    const labels = new Set(["/", "/dashboard", "/gallery?x=1", "/admin/users/123", "/metrics/x", "/f", "/api"].map(routeLabel));
    expect([...labels]).toEqual(["page"]);
  });
});
