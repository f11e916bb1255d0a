import { describe, expect, it } from "vitest";
import { entryMatches, levelsFrom, parseDiscordWebhookUrl, parseLogRule } from "~/services/logs/log-rules.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

describe("parseLogRule", () => {
  it("defaults to every level, any resource, any text", () => {
    expect(parseLogRule({})).toEqual({ minLevel: "trace", resource: null, contains: null });
    expect(parseLogRule({ minLevel: "", resource: "  ", contains: 5 })).toEqual({ minLevel: "trace", resource: null, contains: null });
  });

  it("trims and bounds the resource (100) and the text (200)", () => {
    expect(parseLogRule({ minLevel: "warn", resource: " bank ", contains: " robbery " })).toEqual({ minLevel: "warn", resource: "bank", contains: "robbery" });
    const long = parseLogRule({ resource: "r".repeat(150), contains: "c".repeat(250) });
    expect([long.resource!.length, long.contains!.length]).toEqual([100, 200]);
  });

  it("refuses a level that is not one of ours, synonyms included", () => {
    for (const minLevel of ["warning", "WARN", "loud", "constructor"]) {
      expect(refusal(() => parseLogRule({ minLevel })).message, minLevel).toBe("Level must be one of trace, debug, info, warn, error, fatal");
    }
  });
});

describe("levelsFrom and entryMatches", () => {
  it("take a level and every level above it; an unknown level means all", () => {
    expect(levelsFrom("warn")).toEqual(["warn", "error", "fatal"]);
    expect(levelsFrom("fatal")).toEqual(["fatal"]);
    expect(levelsFrom("nonsense")).toEqual(["trace", "debug", "info", "warn", "error", "fatal"]);
  });

  it("match on level, exact resource and case-insensitive text, all at once", () => {
    const rule = { min_level: "warn", resource: "bank", contains: "RobBery" };
    expect(entryMatches(rule, { level: "error", resource: "bank", message: "Fleeca robbery started" })).toBe(true);
    expect(entryMatches(rule, { level: "info", resource: "bank", message: "robbery" })).toBe(false);
    expect(entryMatches(rule, { level: "error", resource: "Bank", message: "robbery" })).toBe(false);
    expect(entryMatches(rule, { level: "error", resource: null, message: "robbery" })).toBe(false);
    expect(entryMatches(rule, { level: "error", resource: "bank", message: "rob bery" })).toBe(false);
    expect(entryMatches({ min_level: "trace", resource: null, contains: null }, { level: "debug", resource: null, message: "" })).toBe(true);
  });
});

describe("parseDiscordWebhookUrl", () => {
  const BASE = "http://127.0.0.1:4010/api/";

  it("takes Discord's webhook URLs on each of its hosts, without the query", () => {
    expect(parseDiscordWebhookUrl(" https://discord.com/api/webhooks/123/abc-DEF_1 ", BASE)).toBe("https://discord.com/api/webhooks/123/abc-DEF_1");
    expect(parseDiscordWebhookUrl("https://canary.discord.com/api/webhooks/1/x?wait=true", BASE)).toBe("https://canary.discord.com/api/webhooks/1/x");
    expect(parseDiscordWebhookUrl("https://discordapp.com/api/webhooks/1/x", BASE)).toBe("https://discordapp.com/api/webhooks/1/x");
  });

  it("takes the configured Discord API base, with or without a trailing slash", () => {
    expect(parseDiscordWebhookUrl("http://127.0.0.1:4010/api/webhooks/9/tok", BASE)).toBe("http://127.0.0.1:4010/api/webhooks/9/tok");
    expect(parseDiscordWebhookUrl("http://127.0.0.1:4010/api/webhooks/9/tok", "http://127.0.0.1:4010/api")).toBe("http://127.0.0.1:4010/api/webhooks/9/tok");
  });

  it("refuses other hosts, look-alikes, plain http to Discord, extra path and non-numeric ids", () => {
    for (const url of [
      "https://discord.com.evil.example/api/webhooks/1/x",
      "https://evil.example/?https://discord.com/api/webhooks/1/x",
      "http://discord.com/api/webhooks/1/x",
      "https://discord.com/api/webhooks/1/x/../../../users/@me",
      "https://discord.com/api/webhooks/abc/x",
      "https://discord.com/api/webhooks/1/",
      "http://169.254.169.254/api/webhooks/1/x",
      "",
      null,
    ]) {
      expect(refusal(() => parseDiscordWebhookUrl(url, BASE)).code, String(url)).toBe("invalid_request");
    }
  });
});
