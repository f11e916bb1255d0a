import { describe, expect, it } from "vitest";
import { discordAttachmentPath, isSnowflake, parseDiscordAttachmentUrl, snowflakeTime } from "~/services/imports/discord-urls.server";

const SIGNED =
  "https://cdn.discordapp.com/attachments/1012345678901234567/1187654321098765432/IMG_2041.png?ex=65f1a2b3&is=65f05133&hm=3f9c0a5e1b7d2c4e6f8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e&";

describe("parseDiscordAttachmentUrl", () => {
  it("keys a signed link by channel and attachment, reads ex as its expiry and strips ex, is and hm", () => {
    const parsed = parseDiscordAttachmentUrl(SIGNED)!;
    expect(parsed).toEqual({
      channelId: "1012345678901234567",
      attachmentId: "1187654321098765432",
      filename: "IMG_2041.png",
      url: "https://cdn.discordapp.com/attachments/1012345678901234567/1187654321098765432/IMG_2041.png",
      expiresAt: new Date(0x65f1a2b3 * 1000),
    });
  });

  it("keeps parameters other than the signature (media.discordapp.net sizes)", () => {
    const parsed = parseDiscordAttachmentUrl("https://media.discordapp.net/attachments/1012345678901234567/1187654321098765432/a.webp?ex=65f1a2b3&is=65f05133&hm=ab&width=640&height=360&format=webp");
    expect(parsed?.url).toBe("https://media.discordapp.net/attachments/1012345678901234567/1187654321098765432/a.webp?width=640&height=360&format=webp");
  });

  it("accepts an unsigned link from before 2024 and a host in capitals", () => {
    const parsed = parseDiscordAttachmentUrl("https://CDN.DiscordApp.com/attachments/1012345678901234567/1187654321098765432/old%20photo.jpg");
    expect(parsed).toMatchObject({ filename: "old photo.jpg", expiresAt: null, url: "https://cdn.discordapp.com/attachments/1012345678901234567/1187654321098765432/old%20photo.jpg" });
  });

  it.each([
    ["another host", "https://cdn.discordapp.com.evil.example/attachments/1012345678901234567/1187654321098765432/a.png"],
    ["a look-alike path", "https://cdn.discordapp.com/avatars/1012345678901234567/1187654321098765432/a.png"],
    ["ids that are not snowflakes", "https://cdn.discordapp.com/attachments/abc/1187654321098765432/a.png"],
    ["a missing filename", "https://cdn.discordapp.com/attachments/1012345678901234567/1187654321098765432/"],
    ["an extra segment", "https://cdn.discordapp.com/attachments/1012345678901234567/1187654321098765432/a/b.png"],
    ["a bad escape", "https://cdn.discordapp.com/attachments/1012345678901234567/1187654321098765432/%E0%A4%A.png"],
    ["another scheme", "ftp://cdn.discordapp.com/attachments/1012345678901234567/1187654321098765432/a.png"],
    ["not a URL", "cdn.discordapp.com/attachments/1/2/a.png"],
  ])("is null for %s", (_name, url) => {
    expect(parseDiscordAttachmentUrl(url)).toBeNull();
  });
});

describe("snowflakeTime", () => {
  it("reads the upload time from an attachment id: (id >> 22) + 1420070400000", () => {
    // Discord's documented example snowflake.
    expect(snowflakeTime("175928847299117063").toISOString()).toBe("2016-04-30T11:18:25.796Z");
  });

  it("refuses ids that are not snowflakes", () => {
    expect(isSnowflake("175928847299117063")).toBe(true);
    expect(isSnowflake("0000000000000000")).toBe(false);
    expect(isSnowflake("12345")).toBe(false);
    expect(isSnowflake(175928847)).toBe(false);
  });
});

describe("discordAttachmentPath", () => {
  it("encodes the filename as one segment", () => {
    expect(discordAttachmentPath("1", "2", "my photo#1.png")).toBe("/dc/attachments/1/2/my%20photo%231.png");
  });
});
