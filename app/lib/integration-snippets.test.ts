import { describe, expect, it } from "vitest";
import { sharexConfig } from "~/lib/integration-snippets";

describe("sharexConfig", () => {
  it("uploads multipart to this instance's /api/upload with the key in x-api-key, reading url and error from the answer", () => {
    expect(sharexConfig("https://stash.example", "Evidence Locker", "sk_x")).toMatchObject({
      Name: "Evidence Locker",
      RequestMethod: "POST",
      RequestURL: "https://stash.example/api/upload",
      Headers: { "x-api-key": "sk_x" },
      Body: "MultipartFormData",
      FileFormName: "file",
      URL: "{json:url}",
      ErrorMessage: "{json:error}",
    });
  });
});
