import { describe, expect, it } from "vitest";
import { partitionName } from "~/services/logs/log-partitions.server";

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
