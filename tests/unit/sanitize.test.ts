import { describe, expect, it } from "vitest";
import { validateSignIn, validateSignUp } from "../../app/lib/auth-validation.ts";
import { initials } from "../../app/lib/initials.ts";
import { sanitizeInput } from "../../app/lib/sanitize.ts";

describe("sanitizeInput", () => {
  it("strips script blocks, tags, javascript: and inline handlers, then trims", () => {
    expect(sanitizeInput("  <script>alert(1)</script>Alice  ")).toBe("Alice");
    expect(sanitizeInput("<b>Bob</b> <img src=x onerror=alert(1)>")).toBe("Bob");
    expect(sanitizeInput("javascript:alert(1)")).toBe("alert(1)");
    expect(sanitizeInput("x onclick=steal()")).toBe("x steal()");
    expect(sanitizeInput("<scr<script>x</script>ipt>alert(1)</script>")).toBe("alert(1)");
  });

  it("leaves ordinary text alone and keeps inner spaces while typing", () => {
    expect(sanitizeInput("O'Brien & Sons <3", { trim: false })).toBe("O'Brien & Sons <3");
    expect(sanitizeInput("John ", { trim: false })).toBe("John ");
    expect(sanitizeInput("a@b.co")).toBe("a@b.co");
  });
});

describe("auth validation (spec §5)", () => {
  it("asks for every field, a valid e-mail and a 6–128 character password", () => {
    expect(validateSignIn({ email: "", password: "x" })).toEqual({ ok: false, error: "Please fill in all fields" });
    expect(validateSignIn({ email: "nope", password: "x" })).toEqual({ ok: false, error: "Please enter a valid email address" });
    expect(validateSignUp({ displayName: "Al", email: "a@b.co", password: "12345" })).toEqual({
      ok: false,
      error: "Password must be at least 6 characters long",
    });
    expect(validateSignUp({ displayName: "Al", email: "a@b.co", password: "x".repeat(129) })).toEqual({
      ok: false,
      error: "Password must be at most 128 characters long",
    });
    expect(validateSignUp({ displayName: "A", email: "a@b.co", password: "123456" })).toEqual({
      ok: false,
      error: "Display name must be at least 2 characters long",
    });
    // A name that cleaning empties says why, rather than that nothing was typed.
    expect(validateSignUp({ displayName: "<i></i>", email: "a@b.co", password: "123456" })).toEqual({
      ok: false,
      error: "Display name can only be plain text: tags and scripts are removed",
    });
    expect(validateSignUp({ displayName: " Al ", email: "a@b.co", password: "x".repeat(128) }).ok).toBe(true);
  });
});

describe("initials", () => {
  it("takes up to two letters", () => {
    expect(initials("Jane Ann Doe")).toBe("JA");
    expect(initials("jane")).toBe("JA");
    expect(initials(null, "zed@example.com")).toBe("Z");
    expect(initials("", "")).toBe("U");
  });
});
