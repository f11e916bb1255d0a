import { describe, expect, it } from "vitest";
import { invitationLink } from "~/services/teams/team-invitations.server";

describe("invitationLink", () => {
  it("puts the token in the path, escaped", () => {
    expect(invitationLink({ appUrl: "https://stash.example" }, "abc/def?x")).toBe("https://stash.example/invitations/abc%2Fdef%3Fx");
  });
});
