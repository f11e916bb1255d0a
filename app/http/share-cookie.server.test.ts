import { describe, expect, it } from "vitest";
import { readShareUnlock, shareUnlockCookie } from "~/http/share-cookie.server";

const PROOF = "0123456789abcdef".repeat(4);
const withCookie = (cookie: string) => new Request("http://stash.test/s/tok", { headers: { Cookie: cookie } });

describe("the share unlock cookie", () => {
  it("is scoped to the share's path, hidden from scripts, and Secure on HTTPS", () => {
    expect(shareUnlockCookie("tok123", PROOF, true)).toBe(`stash_share=${PROOF}; Path=/s/tok123; HttpOnly; SameSite=Lax; Max-Age=86400; Secure`);
    expect(shareUnlockCookie("tok123", PROOF, false)).not.toContain("Secure");
  });

  it("is read only as 64 hex characters, among other cookies", () => {
    expect(readShareUnlock(withCookie(`theme=dark; stash_share=${PROOF}; x=1`))).toBe(PROOF);
    expect(readShareUnlock(withCookie(`stash_share=${PROOF.toUpperCase()}`))).toBeUndefined();
    expect(readShareUnlock(withCookie("stash_share=abc"))).toBeUndefined();
    expect(readShareUnlock(withCookie(`not_stash_share=${PROOF}`))).toBeUndefined();
    expect(readShareUnlock(new Request("http://stash.test/"))).toBeUndefined();
  });
});
