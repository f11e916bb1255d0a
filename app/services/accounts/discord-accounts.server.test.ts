import { describe, expect, it } from "vitest";
import { discordAvatarUrl } from "~/services/accounts/discord-accounts.server";

describe("discordAvatarUrl", () => {
  it("uses Discord's CDN for an avatar, and none when there is none", () => {
    expect(discordAvatarUrl({ id: "123", avatar: "abc" })).toBe("https://cdn.discordapp.com/avatars/123/abc.png");
    expect(discordAvatarUrl({ id: "123", avatar: null })).toBeNull();
    expect(discordAvatarUrl({ id: "123", avatar: "" })).toBeNull();
  });
});
