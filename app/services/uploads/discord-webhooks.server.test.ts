import { describe, expect, it } from "vitest";
import type { ServerId } from "~/lib/ids";
import type { FileRecord } from "../../../db/schema";
import { discordMessage, parseWebhookPayload } from "~/services/uploads/discord-webhooks.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

describe("parseWebhookPayload", () => {
  it("reads content, username and embeds from fields or payload_json, payload_json winning", () => {
    expect(parseWebhookPayload({ content: "plain", payload_json: '{"content":"json","username":"Cam 1","embeds":[{"title":"t"}]}' })).toEqual({
      content: "json",
      username: "Cam 1",
      embeds: [{ title: "t" }],
    });
    expect(parseWebhookPayload({ content: "hello" })).toEqual({ content: "hello", username: undefined, embeds: [] });
  });

  it("bounds content to 2000, the username to 80 and embeds to 10, ignoring wrong types", () => {
    const payload = parseWebhookPayload({ content: "c".repeat(2500), username: "u".repeat(100), embeds: Array.from({ length: 12 }, () => ({})) });
    expect([payload.content.length, payload.username!.length, payload.embeds.length]).toEqual([2000, 80, 10]);
    expect(parseWebhookPayload({ content: 5, username: ["x"], embeds: "no" })).toEqual({ content: "", username: undefined, embeds: [] });
  });

  it("refuses payload_json that is not JSON", () => {
    expect(refusal(() => parseWebhookPayload({ payload_json: "{oops" }))).toMatchObject({ code: "invalid_request", details: { field: "payload_json" } });
  });
});

describe("discordMessage", () => {
  const file = {
    id: "f1",
    server_id: "srv1",
    category: "webhook",
    filename: "a.png",
    size_bytes: 1234,
    mime_type: "image/png",
    width: 640,
    height: 480,
  } as FileRecord;
  const now = new Date("2026-11-26T12:00:00Z");

  it("answers like Discord, with our files as attachments", () => {
    const message = discordMessage("https://cdn.example", "srv1" as ServerId, "My RP", { content: "hi", embeds: [] }, [file], now);
    expect(message).toMatchObject({
      type: 0,
      content: "hi",
      channel_id: "srv1",
      webhook_id: "srv1",
      author: { id: "srv1", username: "My RP", bot: true },
      attachments: [{ id: "f1", filename: "a.png", size: 1234, content_type: "image/png", url: "https://cdn.example/f/srv1/webhook/a.png", proxy_url: "https://cdn.example/f/srv1/webhook/a.png", width: 640, height: 480 }],
      timestamp: "2026-11-26T12:00:00.000Z",
    });
    expect(discordMessage("https://cdn.example", "srv1" as ServerId, "My RP", { content: "", username: "Cam", embeds: [] }, [], now).author.username).toBe("Cam");
  });

  it("gives an id that is a snowflake of the moment", () => {
    const id = BigInt(discordMessage("", "s" as ServerId, "n", { content: "", embeds: [] }, [], now).id);
    expect(Number(id >> 22n) + 1420070400000).toBe(now.getTime());
  });
});
