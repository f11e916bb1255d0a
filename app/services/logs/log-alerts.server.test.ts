import { describe, expect, it } from "vitest";
import { ALERT_KINDS, parseAlertSettings } from "~/services/logs/log-alerts.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

const BASE = "https://discord.com/api";
const HOOK = "https://discord.com/api/webhooks/123/abc";
const input = (over: Record<string, unknown> = {}) => ({ name: "Bank alarms", kind: "match", channel: "discord", target: HOOK, threshold: undefined, windowMinutes: undefined, cooldownMinutes: undefined, ...over });

describe("parseAlertSettings", () => {
  it("takes a Discord or e-mail alert with the default count, window and cooldown", () => {
    expect(parseAlertSettings(BASE, input())).toEqual({ name: "Bank alarms", kind: "match", channel: "discord", target: HOOK, threshold: 1, windowMinutes: 5, cooldownMinutes: 15 });
    expect(parseAlertSettings(BASE, input({ channel: "email", target: " ops@example.com ", kind: "count", threshold: "10", windowMinutes: "60", cooldownMinutes: "0" }))).toMatchObject({
      channel: "email",
      target: "ops@example.com",
      threshold: 10,
      windowMinutes: 60,
      cooldownMinutes: 0,
    });
  });

  it("needs a name of at most 80 characters", () => {
    for (const name of ["", "   ", undefined, "n".repeat(81)]) expect(refusal(() => parseAlertSettings(BASE, input({ name }))).message).toBe("Name the alert (at most 80 characters)");
    expect(parseAlertSettings(BASE, input({ name: ` ${"n".repeat(80)} ` })).name).toHaveLength(80);
  });

  it("knows the three kinds and nothing an object merely answers to", () => {
    expect(Object.keys(ALERT_KINDS)).toEqual(["match", "count", "absence"]);
    for (const kind of ["sometimes", "", 1, "constructor", "toString", "__proto__"]) {
      expect(refusal(() => parseAlertSettings(BASE, input({ kind }))).message, String(kind)).toBe("Choose when the alert fires");
    }
  });

  it("sends only to a Discord webhook or a plausible address", () => {
    expect(refusal(() => parseAlertSettings(BASE, input({ channel: "sms" }))).message).toBe("Send alerts to Discord or e-mail");
    expect(refusal(() => parseAlertSettings(BASE, input({ target: "https://evil.example/api/webhooks/1/x" }))).code).toBe("invalid_request");
    for (const target of ["ops", "ops@", "ops@example", "a b@example.com", 5]) {
      expect(refusal(() => parseAlertSettings(BASE, input({ channel: "email", target }))).message, String(target)).toBe("Enter the e-mail address to alert");
    }
  });

  it("holds count, window and cooldown to whole numbers in range", () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ threshold: 0 }, "The count must be a whole number from 1 to 1000000"],
      [{ threshold: "1000001" }, "The count must be a whole number from 1 to 1000000"],
      [{ windowMinutes: "1.5" }, "The window must be a whole number from 1 to 1440"],
      [{ windowMinutes: 1441 }, "The window must be a whole number from 1 to 1440"],
      [{ cooldownMinutes: -1 }, "The cooldown must be a whole number from 0 to 10080"],
      [{ cooldownMinutes: "soon" }, "The cooldown must be a whole number from 0 to 10080"],
    ];
    for (const [over, message] of cases) expect(refusal(() => parseAlertSettings(BASE, input(over))).message, JSON.stringify(over)).toBe(message);
    expect(parseAlertSettings(BASE, input({ threshold: 1_000_000, windowMinutes: 1440, cooldownMinutes: 10080 }))).toMatchObject({ threshold: 1_000_000, windowMinutes: 1440, cooldownMinutes: 10080 });
  });
});
