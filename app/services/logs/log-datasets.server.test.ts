import { describe, expect, it } from "vitest";
import { DEFAULT_DATASET, parseDatasetName } from "~/services/logs/log-datasets.server";
import { partitionName } from "~/services/logs/log-partitions.server";
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

describe("partitionName", () => {
  it("names the UTC day of a moment, whatever the moment's time", () => {
    expect(partitionName(new Date("2026-11-26T00:00:00Z"))).toBe("log_entries_20261126");
    expect(partitionName(new Date("2026-11-26T23:59:59.999Z"))).toBe("log_entries_20261126");
    expect(partitionName(new Date("2026-11-27T00:30:00+02:00"))).toBe("log_entries_20261126");
    expect(partitionName(new Date("2028-02-29T12:00:00Z"))).toBe("log_entries_20280229");
  });

  it("sorts by day as text, which retention relies on", () => {
    const names = ["2026-12-01", "2026-11-30", "2027-01-01"].map((d) => partitionName(new Date(`${d}T00:00:00Z`)));
    expect([...names].sort()).toEqual(["log_entries_20261130", "log_entries_20261201", "log_entries_20270101"]);
  });
});
