import { describe, expect, it } from "vitest";
import { embedOf } from "~/services/logs/log-forwards.server";

const entry = { ts: "2026-11-26T12:00:00.000Z", level: "error", resource: "bank", message: "Fleeca robbery", dataset: "economy" };

describe("embedOf: a forwarded entry as a Discord embed", () => {
  it("titles it with the level and resource, colours it by level and names the dataset", () => {
    expect(embedOf(entry)).toEqual({ title: "ERROR · bank", description: "Fleeca robbery", color: 0xe74c3c, timestamp: entry.ts, footer: { text: "Stash · economy" } });
    expect(embedOf({ ...entry, level: "warn", resource: null }).title).toBe("WARN");
  });

  it("keeps within Discord's limits: a 256-character title and a 4000-character description", () => {
    const embed = embedOf({ ...entry, resource: "r".repeat(300), message: "m".repeat(5000) });
    expect(embed.title).toHaveLength(256);
    expect(embed.description).toHaveLength(4000);
  });

  it("gives an unknown level the info colour", () => {
    expect(embedOf({ ...entry, level: "notice" }).color).toBe(embedOf({ ...entry, level: "info" }).color);
  });
});
