import { describe, expect, it } from "vitest";
import {
  discordLogEntry,
  MAX_ENTRIES_PER_REQUEST,
  MAX_MESSAGE_CHARS,
  parseLogBody,
  parseLogEntry,
  parseLokiPush,
  parseMetadata,
  parseTimestamp,
} from "~/services/logs/log-parsing.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

const NOW = new Date("2026-11-26T12:00:00.000Z");
const DAY = 86_400_000;

describe("parseTimestamp", () => {
  it("is now when absent or empty", () => {
    for (const value of [undefined, null, ""]) expect(parseTimestamp(value, NOW)).toEqual(NOW);
  });

  it("reads ISO text and epoch seconds, milliseconds, microseconds and nanoseconds, as numbers or text", () => {
    const at = new Date("2026-11-26T11:59:30.250Z");
    expect(parseTimestamp("2026-11-26T11:59:30.250Z", NOW)).toEqual(at);
    expect(parseTimestamp(at.getTime() / 1000, NOW)).toEqual(at);
    expect(parseTimestamp(String(at.getTime() / 1000), NOW)).toEqual(at);
    expect(parseTimestamp(at.getTime(), NOW)).toEqual(at);
    expect(parseTimestamp(` ${at.getTime() * 1000} `, NOW)).toEqual(at);
    expect(parseTimestamp(`${at.getTime()}000000`, NOW)).toEqual(at);
  });

  it("keeps the millisecond a sender wrote in nanoseconds or microseconds, however long the number", () => {
    const at = new Date("2026-11-26T11:59:30.250Z");
    expect(parseTimestamp(`${at.getTime()}999999`, NOW)).toEqual(at);
    expect(parseTimestamp(`${at.getTime()}999`, NOW)).toEqual(at);
    expect(parseTimestamp(`${at.getTime()}000001`, NOW)).toEqual(at);
    expect(parseTimestamp(`000${at.getTime()}`, NOW)).toEqual(at);
  });

  it("takes up to 30 days back and a day ahead, and no further", () => {
    expect(parseTimestamp(NOW.getTime() - 30 * DAY, NOW)).toEqual(new Date(NOW.getTime() - 30 * DAY));
    expect(parseTimestamp(NOW.getTime() + DAY, NOW)).toEqual(new Date(NOW.getTime() + DAY));
    expect(refusal(() => parseTimestamp(NOW.getTime() - 30 * DAY - 1, NOW)).message).toBe("timestamp must be within the last 30 days");
    expect(refusal(() => parseTimestamp(NOW.getTime() + DAY + 1, NOW)).code).toBe("invalid_request");
    expect(refusal(() => parseTimestamp(0, NOW)).code).toBe("invalid_request");
  });

  it("refuses what is not a date, naming the entry in a batch", () => {
    expect(refusal(() => parseTimestamp("yesterday", NOW))).toMatchObject({ code: "invalid_request", message: "timestamp is not a date" });
    expect(refusal(() => parseTimestamp(true, NOW, 3)).message).toBe("Entry 3: timestamp must be an ISO date or a number");
    expect(refusal(() => parseTimestamp({}, NOW)).code).toBe("invalid_request");
    expect(refusal(() => parseTimestamp(Number.NaN, NOW)).message).toBe("timestamp is not a date");
    expect(refusal(() => parseTimestamp("-5", NOW)).code).toBe("invalid_request");
  });
});

describe("parseMetadata", () => {
  it("takes an object, or a string holding one; nothing is {}", () => {
    expect(parseMetadata({ plate: "ABC" })).toEqual({ plate: "ABC" });
    expect(parseMetadata('{"plate":"ABC"}')).toEqual({ plate: "ABC" });
    for (const value of [undefined, null, ""]) expect(parseMetadata(value)).toEqual({});
  });

  it("refuses arrays, scalars, broken JSON and more than 16 KB", () => {
    for (const value of [[1], "[1]", 5, "5", "{oops", true]) {
      expect(refusal(() => parseMetadata(value)).message, JSON.stringify(value)).toBe("metadata must be a JSON object");
    }
    expect(refusal(() => parseMetadata({ x: "a".repeat(16 * 1024) })).message).toBe("metadata must be at most 16 KB");
    expect(parseMetadata({ x: "a".repeat(16 * 1024 - 10) })).toBeTruthy();
  });

  it("counts bytes, not characters, against 16 KB", () => {
    expect(refusal(() => parseMetadata({ x: "ż".repeat(8200) })).message).toBe("metadata must be at most 16 KB");
  });

  it("drops NUL and replaces lone surrogates in keys and values, at any depth", () => {
    expect(parseMetadata({ "a\u0000b": ["x\u0000y", { deep: "\ud800!" }] })).toEqual({ ab: ["xy", { deep: "\ufffd!" }] });
    expect(parseMetadata('{"k":"\\udc00"}')).toEqual({ k: "\ufffd" });
    expect(parseMetadata({ emoji: "🚓" })).toEqual({ emoji: "🚓" });
  });
});

describe("parseLogEntry", () => {
  it("reads our, Fivemanage's and Fivemerr's fields", () => {
    expect(parseLogEntry({ level: "warning", message: "Low fuel", resource: " garage ", metadata: { car: 1 }, timestamp: "2026-11-26T11:00:00Z", dataset: "cars" }, NOW)).toEqual({
      ts: new Date("2026-11-26T11:00:00Z"),
      level: "warn",
      resource: "garage",
      message: "Low fuel",
      metadata: { car: 1 },
      dataset: "cars",
    });
    expect(parseLogEntry({ msg: "hi", meta: { a: 1 }, time: NOW.getTime() }, NOW)).toMatchObject({ message: "hi", metadata: { a: 1 }, level: "info", resource: null });
  });

  it("writes a non-text message as JSON, and needs one that is not blank", () => {
    expect(parseLogEntry({ message: { event: "join" } }, NOW).message).toBe('{"event":"join"}');
    expect(parseLogEntry({ message: 0 }, NOW).message).toBe("0");
    for (const message of [undefined, "", "   ", null]) expect(refusal(() => parseLogEntry({ message }, NOW)).message).toBe("message is required");
  });

  it("holds the message to 32 KB characters and the resource to 100", () => {
    expect(parseLogEntry({ message: "m".repeat(MAX_MESSAGE_CHARS) }, NOW).message).toHaveLength(MAX_MESSAGE_CHARS);
    expect(refusal(() => parseLogEntry({ message: "m".repeat(MAX_MESSAGE_CHARS + 1) }, NOW)).message).toBe("message must be at most 32 KB");
    expect(parseLogEntry({ message: "x", resource: "r".repeat(150) }, NOW).resource).toHaveLength(100);
    expect(parseLogEntry({ message: "x", resource: "   " }, NOW).resource).toBeNull();
  });

  it("keeps a dataset of any type as text for the dataset check, and strips NUL from the message", () => {
    expect(parseLogEntry({ message: "a\u0000b", dataset: 7 }, NOW)).toMatchObject({ message: "ab", dataset: "7" });
    expect(parseLogEntry({ message: "a" }, NOW)).not.toHaveProperty("dataset");
  });

  it("refuses an entry that is not an object", () => {
    for (const value of [null, "text", 5, []]) expect(refusal(() => parseLogEntry(value, NOW, 2)).message).toBe("Entry 2: each entry must be a JSON object");
  });
});

describe("parseLogBody", () => {
  it("takes one entry, an array or {logs: [...]}", () => {
    expect(parseLogBody({ message: "a" }, NOW)).toHaveLength(1);
    expect(parseLogBody([{ message: "a" }, { message: "b" }], NOW).map((e) => e.message)).toEqual(["a", "b"]);
    expect(parseLogBody({ logs: [{ message: "c" }] }, NOW)[0]!.message).toBe("c");
  });

  it("numbers the failing entry only in a batch", () => {
    expect(refusal(() => parseLogBody([{ message: "a" }, { level: "info" }], NOW)).message).toBe("Entry 1: message is required");
    expect(refusal(() => parseLogBody({ level: "info" }, NOW)).message).toBe("message is required");
  });

  it("refuses an empty batch and more than 1,000 entries", () => {
    expect(refusal(() => parseLogBody([], NOW)).message).toBe("Send at least one log entry");
    expect(refusal(() => parseLogBody({ logs: [] }, NOW)).message).toBe("Send at least one log entry");
    const many = Array.from({ length: MAX_ENTRIES_PER_REQUEST + 1 }, () => ({ message: "x" }));
    expect(refusal(() => parseLogBody(many, NOW)).code).toBe("request_too_large");
    expect(parseLogBody(many.slice(1), NOW)).toHaveLength(MAX_ENTRIES_PER_REQUEST);
  });
});

describe("parseLokiPush", () => {
  const ns = (date: Date) => `${date.getTime()}000000`;

  it("reads each stream's lines with its labels, taking resource, level and dataset from labels", () => {
    const entries = parseLokiPush({ streams: [{ stream: { job: "ox_lib", level: "error", dataset: "Economy" }, values: [[ns(NOW), "payout failed"]] }] }, NOW);
    expect(entries).toEqual([
      { ts: NOW, level: "error", resource: "ox_lib", message: "payout failed", metadata: { labels: { job: "ox_lib", level: "error", dataset: "Economy" } }, dataset: "Economy" },
    ]);
  });

  it("takes the message and level of a JSON line, the rest as metadata, structured metadata too", () => {
    const [entry] = parseLokiPush({ streams: [{ stream: { resource: "bank" }, values: [[ns(NOW), '{"msg":"paid","level":"warn","amount":5}', { trace: "t1" }]] }] }, NOW);
    expect(entry).toMatchObject({ message: "paid", level: "warn", resource: "bank", metadata: { trace: "t1", amount: 5, labels: { resource: "bank" } } });
    expect(entry!.metadata).not.toHaveProperty("level");
  });

  it("keeps a line that is JSON but not an object as text", () => {
    expect(parseLokiPush({ streams: [{ stream: {}, values: [[ns(NOW), "[1,2]"], [ns(NOW), "42"]] }] }, NOW).map((e) => e.message)).toEqual(["[1,2]", "42"]);
  });

  it("refuses a push without streams, a stream without values, a value that is not a pair, and an empty push", () => {
    expect(refusal(() => parseLokiPush({}, NOW)).message).toBe("A Loki push needs streams");
    expect(refusal(() => parseLokiPush(null, NOW)).message).toBe("A Loki push needs streams");
    expect(refusal(() => parseLokiPush({ streams: [{ stream: {} }] }, NOW)).message).toBe("Each stream needs stream labels and values");
    expect(refusal(() => parseLokiPush({ streams: [{ stream: {}, values: [[ns(NOW)]] }] }, NOW)).message).toBe("Entry 0: each value must be [timestamp, line]");
    expect(refusal(() => parseLokiPush({ streams: [{ stream: {}, values: [] }] }, NOW)).message).toBe("Send at least one log entry");
  });

  it("refuses more than 1,000 lines across streams", () => {
    const values = Array.from({ length: 600 }, () => [ns(NOW), "x"]);
    expect(refusal(() => parseLokiPush({ streams: [{ stream: {}, values }, { stream: {}, values }] }, NOW)).code).toBe("request_too_large");
  });
});

describe("discordLogEntry", () => {
  it("flattens content and embeds into the message and keeps their shape in metadata", () => {
    const entry = discordLogEntry(
      {
        content: " Bank robbery ",
        username: "JD_logs",
        embeds: [{ title: "Robbery", description: "Fleeca", color: 0xe74c3c, fields: [{ name: "Player", value: "Jo" }, { name: "Amount" }], author: { name: "bank" }, image: { url: "https://x/y.png" } }],
      },
      NOW,
    );
    expect(entry).toEqual({
      ts: NOW,
      level: "error",
      resource: "JD_logs",
      message: "Bank robbery\nRobbery\nFleeca\nPlayer: Jo\nAmount: ",
      metadata: { source: "discord_webhook", fields: { Player: "Jo", Amount: "" }, title: "Robbery", color: 0xe74c3c, author: "bank", image: "https://x/y.png" },
    });
  });

  it("reads the level from the first embed's colour", () => {
    const level = (color: unknown) => discordLogEntry({ embeds: [{ title: "t", color }] }, NOW)!.level;
    expect(level(0xff0000)).toBe("error");
    expect(level(0xffa500)).toBe("warn");
    expect(level(0xf1c40f)).toBe("warn");
    expect(level(0x2ecc71)).toBe("info");
    expect(level("not a colour")).toBe("info");
    expect(level(undefined)).toBe("info");
  });

  it("is nothing for a message without text, and counts extra embeds", () => {
    expect(discordLogEntry({ content: "  ", embeds: [] }, NOW)).toBeNull();
    expect(discordLogEntry({ embeds: "nope" }, NOW)).toBeNull();
    expect(discordLogEntry({ embeds: [{ title: "a" }, { title: "b" }] }, NOW)!.metadata).toMatchObject({ embeds: 2 });
  });

  it("cuts a huge message to 32 KB and replaces oversized metadata with a marker", () => {
    const entry = discordLogEntry({ content: "x".repeat(40_000), embeds: [{ fields: [{ name: "big", value: "y".repeat(20_000) }] }] }, NOW)!;
    expect(entry.message).toHaveLength(MAX_MESSAGE_CHARS);
    expect(entry.metadata).toEqual({ source: "discord_webhook", truncated: true });
  });

  it("makes NUL and lone surrogates storable, and a blank username no resource", () => {
    const entry = discordLogEntry({ content: "a\u0000b\ud800", username: "  " }, NOW)!;
    expect(entry.message).toBe("ab\ufffd");
    expect(entry.resource).toBeNull();
  });
});
