import { describe, expect, it } from "vitest";
import { incompleteUploadGraceMs } from "~/services/maintenance/storage-reconcile.server";
import { loadConfig } from "~/services/platform/env.server";

describe("incompleteUploadGraceMs", () => {
  it("waits out the longest request plus five minutes, a day when requests never time out", () => {
    expect(incompleteUploadGraceMs(loadConfig({ REQUEST_TIMEOUT_S: "600" }))).toBe(600_000 + 300_000);
    expect(incompleteUploadGraceMs(loadConfig({}))).toBe(3_600_000 + 300_000);
    expect(incompleteUploadGraceMs(loadConfig({ REQUEST_TIMEOUT_S: "0" }))).toBe(86_400_000 + 300_000);
  });
});
