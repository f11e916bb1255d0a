import { describe, expect, it } from "vitest";
import { isLogLevel, LOG_LEVELS, normaliseLevel } from "~/lib/log-levels";

describe("normaliseLevel", () => {
  it("maps what senders call their levels onto ours, whatever the case and spacing", () => {
    expect(normaliseLevel("WARNING")).toBe("warn");
    expect(normaliseLevel(" Err ")).toBe("error");
    expect(normaliseLevel("verbose")).toBe("debug");
    expect(normaliseLevel("critical")).toBe("fatal");
    expect(normaliseLevel("success")).toBe("info");
    for (const level of LOG_LEVELS) expect(normaliseLevel(level)).toBe(level);
  });

  it("reads anything unknown, missing or not text as info", () => {
    for (const value of [undefined, null, "", "loud", 3, { level: "error" }, ["error"]]) expect(normaliseLevel(value)).toBe("info");
  });

  it("never answers with a property every object has", () => {
    for (const value of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) expect(normaliseLevel(value), value).toBe("info");
  });
});

describe("isLogLevel", () => {
  it("knows only our six names, exactly", () => {
    expect(LOG_LEVELS).toEqual(["trace", "debug", "info", "warn", "error", "fatal"]);
    expect(isLogLevel("warn")).toBe(true);
    expect(isLogLevel("warning")).toBe(false);
    expect(isLogLevel("WARN")).toBe(false);
    expect(isLogLevel(undefined)).toBe(false);
  });
});
