import { describe, expect, it } from "vitest";
import { DEFAULT_DATASET, parseDatasetName } from "~/services/logs/log-datasets.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

describe("parseDatasetName", () => {
  it("is the default dataset when none is named", () => {
    for (const value of [undefined, null, ""]) expect(parseDatasetName(value)).toBe(DEFAULT_DATASET);
  });

  it("lower-cases and trims a name, and takes numbers as text", () => {
    expect(parseDatasetName("  Economy_Logs-2 ")).toBe("economy_logs-2");
    expect(parseDatasetName(2026)).toBe("2026");
    expect(parseDatasetName("x".repeat(40))).toBe("x".repeat(40));
  });

  it("refuses names that would not make a tidy label", () => {
    for (const value of ["   ", "-economy", "_x", "eco nomy", "économie", "a/b", "x".repeat(41), "a.b"]) {
      expect(refusal(() => parseDatasetName(value)).message, value).toBe("dataset must be 1-40 characters: letters, digits, - and _ (starting with a letter or digit)");
    }
  });
});
