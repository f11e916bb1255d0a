import { describe, expect, it } from "vitest";
import { parseImportFields } from "~/services/imports/import-input.server";
import { refusal } from "../../../tests/helpers/refusals";

const file = { path: "/tmp/upload-1", filename: "export.json" };

describe("parseImportFields", () => {
  it("reads each source's fields as the portal's form and the API send them", () => {
    expect(parseImportFields({ source: "discord_export", bot_token: " tok ", category: "evidence", is_public: "false" }, file)).toEqual({
      source: "discord_export",
      file,
      botToken: "tok",
      category: "evidence",
      isPublic: false,
    });
    expect(parseImportFields({ source: "urls", urls: "https://a.example/x.png", hosts: "a.example", draft: true })).toMatchObject({ source: "urls", urls: "https://a.example/x.png", hosts: "a.example", draft: true });
    expect(parseImportFields({ source: "discord_bot", bot_token: "t", channel_ids: ["1", "2"] })).toMatchObject({ source: "discord_bot", botToken: "t", channelIds: ["1", "2"] });
    expect(parseImportFields({ source: "zipline", instance_url: "https://i.example", route: "/u" }, file)).toMatchObject({ source: "zipline", instanceUrl: "https://i.example", route: "/u" });
  });

  it("takes a list of URLs from an uploaded text file when none is pasted", () => {
    expect(parseImportFields({ source: "urls", urls: "" }, { ...file, text: "https://a.example/x.png" })).toMatchObject({ urls: "https://a.example/x.png" });
  });

  it("refuses an unknown source, a missing file and a bad flag, naming the field", () => {
    expect(refusal(() => parseImportFields({ source: "dropbox" })).details).toEqual({ field: "source" });
    expect(refusal(() => parseImportFields({ source: "folder" }))).toMatchObject({ code: "missing_file", message: "Upload the folder as a .zip", details: { field: "file" } });
    expect(refusal(() => parseImportFields({ source: "urls" })).details).toEqual({ field: "urls" });
    expect(refusal(() => parseImportFields({ source: "folder", is_public: "maybe" }, file)).details).toEqual({ field: "is_public" });
  });
});
