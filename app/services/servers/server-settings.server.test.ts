import { describe, expect, it } from "vitest";
import type { ServerId } from "~/lib/ids";
import { uploadSettingsOf, webhookUrl } from "~/services/servers/server-settings.server";
import { newWebhookSecret } from "~/services/servers/servers.server";

describe("server settings", () => {
  it("read a row's upload settings", () => {
    expect(uploadSettingsOf({ max_file_size_mb: 25, allowed_file_types: ["jpg"], default_public: false, strip_metadata: true, convert_to_webp: false })).toEqual({
      maxFileSizeMb: 25,
      allowedFileTypes: ["jpg"],
      defaultPublic: false,
      stripMetadata: true,
      convertToWebp: false,
    });
  });

  it("give each server a webhook URL with a 40-character secret", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^[0-9A-Za-z]{40}$/);
    expect(newWebhookSecret()).not.toBe(secret);
    expect(webhookUrl("https://stash.example", { id: "srv1" as ServerId, webhook_secret: secret })).toBe(`https://stash.example/api/webhooks/srv1/${secret}`);
  });
});
