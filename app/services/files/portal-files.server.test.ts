import { describe, expect, it } from "vitest";
import type { FileId, ServerId } from "~/lib/ids";
import { shareUrl } from "~/services/files/portal-files.server";

describe("shareUrl", () => {
  it("copies a public file's CDN URL and a private file's owner-only portal URL", () => {
    const config = { cdnBaseUrl: "https://cdn.example", appUrl: "https://app.example" };
    const portalFile = { id: "f1" as FileId, serverId: "srv1" as ServerId, category: "mugshots", filename: "x1.png" };
    expect(shareUrl(config, { ...portalFile, isPublic: true })).toBe("https://cdn.example/f/srv1/mugshots/x1.png");
    expect(shareUrl(config, { ...portalFile, isPublic: false })).toBe("https://app.example/api/media/f1");
  });
});
