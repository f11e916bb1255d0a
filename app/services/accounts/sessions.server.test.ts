import { describe, expect, it } from "vitest";
import { clearSessionCookie, readSessionToken, serializeSessionCookie, sessionCookieName, SESSION_TTL_MS } from "~/services/accounts/sessions.server";

const secure = { cookieSecure: true };
const plain = { cookieSecure: false };

describe("the session cookie", () => {
  it("is a __Host- cookie on HTTPS, a plain one otherwise", () => {
    expect(sessionCookieName(secure)).toBe("__Host-stash_session");
    expect(sessionCookieName(plain)).toBe("stash_session");
  });

  it("is sent HttpOnly, Lax, for the whole site, living until the session expires", () => {
    const cookie = serializeSessionCookie(secure, "tok", new Date(Date.now() + SESSION_TTL_MS));
    expect(cookie).toMatch(/^__Host-stash_session=tok; Path=\/; HttpOnly; SameSite=Lax; Max-Age=(2591999|2592000); Secure$/);
    expect(serializeSessionCookie(plain, "tok", new Date(Date.now() - 5000))).toBe("stash_session=tok; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
  });

  it("is cleared with the same attributes", () => {
    expect(clearSessionCookie(secure)).toBe("__Host-stash_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure");
    expect(clearSessionCookie(plain)).toBe("stash_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
  });

  it("is read by its exact name among other cookies", () => {
    expect(readSessionToken(plain, "theme=dark; stash_session= abc ; x=1")).toBe("abc");
    expect(readSessionToken(secure, "stash_session=plain; __Host-stash_session=host")).toBe("host");
    expect(readSessionToken(plain, "__Host-stash_session=host")).toBeNull();
    expect(readSessionToken(plain, "my_stash_session=x")).toBeNull();
    expect(readSessionToken(plain, "stash_session=")).toBeNull();
    expect(readSessionToken(plain, "stash_session")).toBeNull();
    expect(readSessionToken(plain, "=x; stash_session=a=b")).toBe("a=b");
    expect(readSessionToken(plain, null)).toBeNull();
  });
});
