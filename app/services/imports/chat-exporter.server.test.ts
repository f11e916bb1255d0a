import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { exportMediaPath, parseChatExport, parseChatExportText } from "~/services/imports/chat-exporter.server";
import { refusal } from "../../../tests/helpers/refusals";

const NAME = "Los Santos RP - Logs - phone-photos [1012345678901234567].json";
const remote = fs.readFileSync(`tests/fixtures/imports/${NAME}`, "utf8");
const media = fs.readFileSync(`tests/fixtures/imports/dce-media/${NAME}`, "utf8");

describe("parseChatExport: a DiscordChatExporter JSON export", () => {
  it("lists every attachment keyed by channel and attachment id, with its message, author and snowflake time", () => {
    const parsed = parseChatExportText(remote);
    expect(parsed).toMatchObject({ channelId: "1012345678901234567", channelName: "phone-photos", guildName: "Los Santos RP", media: false, messageCount: 4 });
    expect(parsed.items).toHaveLength(4);
    expect(parsed.items[1]).toEqual({
      ref: "https://cdn.discordapp.com/attachments/1012345678901234567/1187654321098765433/bank_cam_1.jpg",
      filename: "bank_cam_1.jpg",
      channelId: "1012345678901234567",
      attachmentId: "1187654321098765433",
      messageId: "1187654321098760002",
      author: "Tommy Vercetti",
      postedAt: new Date(Number((1187654321098765433n >> 22n) + 1420070400000n)),
      sizeBytes: 91233,
    });
  });

  it("turns messages with embeds into log entries at the time they were posted, flattened like live capture", () => {
    const [entry] = parseChatExportText(remote).logEntries;
    expect(parseChatExportText(remote).logEntries).toHaveLength(1);
    expect(entry).toMatchObject({
      ts: new Date("2023-12-21T18:04:11.553Z"),
      level: "error",
      resource: "LB Phone",
      message: "Photo taken\nTommy Vercetti took a photo at Vinewood Hills\nCitizen ID: TVC12345\nPhone number: 555-0142",
      metadata: { source: "discord_import", channel_id: "1012345678901234567", message_id: "1187654321098760001", fields: { "Citizen ID": "TVC12345" } },
    });
  });

  it("reads a --media export's relative paths, Windows backslashes included, as files inside the archive", () => {
    const parsed = parseChatExportText(media, "exports");
    expect(parsed.media).toBe(true);
    expect(parsed.items.map((i) => i.ref)).toEqual([
      `archive:exports/${NAME}_Files/IMG_2041-F07F7.png`,
      `archive:exports/${NAME}_Files/bank_cam_1-E2F2E.jpg`,
      `archive:exports/${NAME}_Files/bank_cam_2-5D2BB.jpg`,
      `archive:exports/${NAME}_Files/deleted_later-0130A.png`,
    ]);
    expect(parsed.items[0]).toMatchObject({ channelId: "1012345678901234567", attachmentId: "1187654321098765432", filename: "IMG_2041.png" });
  });

  it("refuses text that is not JSON, JSON that is not an export, and messages without ids", () => {
    expect(refusal(() => parseChatExportText("<html>"))).toMatchObject({ code: "invalid_export", message: expect.stringMatching(/^The export is not valid JSON/) });
    expect(refusal(() => parseChatExport({ messages: [] }))).toMatchObject({ code: "invalid_export", message: expect.stringContaining("channel") });
    const broken = JSON.parse(remote);
    broken.messages[2].id = "not-an-id";
    expect(refusal(() => parseChatExport(broken))).toMatchObject({ code: "invalid_export", message: "Message 3 has no valid id or timestamp" });
  });

  it("reads an export that starts with a byte order mark", () => {
    expect(parseChatExportText(`\ufeff${remote}`).items).toHaveLength(4);
  });
});

describe("exportMediaPath", () => {
  it("resolves a path against the JSON file's folder and refuses one that leaves the export", () => {
    expect(exportMediaPath("", "a.json_Files/x.png")).toBe("a.json_Files/x.png");
    expect(exportMediaPath("dir", ".\\a.json_Files\\x.png")).toBe("dir/a.json_Files/x.png");
    expect(exportMediaPath("dir", "../../etc/passwd")).toBeNull();
    expect(exportMediaPath("", "/etc/passwd")).toBeNull();
    expect(exportMediaPath("", "C:\\Users\\me\\x.png")).toBeNull();
  });
});
