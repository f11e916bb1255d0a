import { describe, expect, it } from "vitest";
import { lengthChecks, PHONE_TABLES, rewriteDiscordUrl, rewriteStatements, urlMapCsv } from "~/services/imports/rewrite-report.server";

const LINK =
  "https://cdn.discordapp.com/attachments/1012345678901234567/1187654321098765432/IMG_2041.png?ex=65f1a2b3&is=65f05133&hm=3f9c0a5e1b7d2c4e6f8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e&";

describe("rewriteDiscordUrl", () => {
  it("swaps either Discord host for the CDN base's /dc/ and drops the signature", () => {
    expect(rewriteDiscordUrl(LINK, "https://cdn.example.com")).toBe("https://cdn.example.com/dc/attachments/1012345678901234567/1187654321098765432/IMG_2041.png");
    expect(rewriteDiscordUrl(LINK.replace("cdn.discordapp.com", "media.discordapp.net"), "https://c.example")).toBe(
      "https://c.example/dc/attachments/1012345678901234567/1187654321098765432/IMG_2041.png",
    );
    expect(rewriteDiscordUrl("https://example.com/attachments/1/2/a.png", "https://c.example")).toBeNull();
  });
});

describe("rewriteStatements", () => {
  it("writes one UPDATE per Discord host that only touches attachment links that fit the column", () => {
    const sql = rewriteStatements(PHONE_TABLES[0]!, "https://cdn.example.com");
    expect(sql).toBe(
      [
        "-- LB Phone: phone_photos.link (VARCHAR(200))",
        "UPDATE IGNORE `phone_photos` SET `link` = REPLACE(SUBSTRING_INDEX(`link`, '?', 1), 'https://cdn.discordapp.com/', 'https://cdn.example.com/dc/')",
        "  WHERE `link` LIKE 'https://cdn.discordapp.com/attachments/%' AND CHAR_LENGTH(REPLACE(SUBSTRING_INDEX(`link`, '?', 1), 'https://cdn.discordapp.com/', 'https://cdn.example.com/dc/')) <= 200;",
        "UPDATE IGNORE `phone_photos` SET `link` = REPLACE(SUBSTRING_INDEX(`link`, '?', 1), 'https://media.discordapp.net/', 'https://cdn.example.com/dc/')",
        "  WHERE `link` LIKE 'https://media.discordapp.net/attachments/%' AND CHAR_LENGTH(REPLACE(SUBSTRING_INDEX(`link`, '?', 1), 'https://media.discordapp.net/', 'https://cdn.example.com/dc/')) <= 200;",
      ].join("\n"),
    );
  });

  it("quotes a base URL with a quote or backslash so it cannot end the string", () => {
    expect(rewriteStatements(PHONE_TABLES[1]!, "https://x.example/it's\\")).toContain("'https://x.example/it''s\\\\/dc/'");
  });
});

describe("lengthChecks", () => {
  it("counts, per table, the rewritten links longer than the column", () => {
    const long = `https://cdn.discordapp.com/attachments/1012345678901234567/1187654321098765432/${"a".repeat(120)}.png?ex=1`;
    const checks = lengthChecks([LINK, long, "https://example.com/x.png"], "https://cdn.example.com");
    expect(checks.map((c) => [c.table.table, c.tooLong, c.longest])).toEqual([
      ["phone_photos", 1, 203],
      ["phone_gallery", 0, 203],
      ["npwd_phone_gallery", 0, 203],
    ]);
  });
});

describe("urlMapCsv", () => {
  it("writes a header and one quoted row per mapping", () => {
    expect(urlMapCsv([{ old: "https://a.example/x,y.png", new: "https://s.example/f/1/a/b.png" }])).toBe('old_url,new_url\r\n"https://a.example/x,y.png",https://s.example/f/1/a/b.png\r\n');
  });
});
