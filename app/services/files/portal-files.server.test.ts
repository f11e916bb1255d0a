import { describe, expect, it } from "vitest";
import { shareUrl } from "~/services/files/portal-files.server";

describe("shareUrl", () => {
  it("copies a public file's CDN URL and a private file's owner-only portal URL", () => {
    const config = { cdnBaseUrl: "https://cdn.example", appUrl: "https://app.example" };
    const portalFile = { id: "f1", serverId: "srv1", category: "mugshots", filename: "x1.png" };
    expect(shareUrl(config, { ...portalFile, isPublic: true })).toBe("https://cdn.example/f/srv1/mugshots/x1.png");
    expect(shareUrl(config, { ...portalFile, isPublic: false })).toBe("https://app.example/api/media/f1");
  });
});
