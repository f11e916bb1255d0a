import { describe, expect, it } from "vitest";
import { isValidEmail, signInErrorMessage, signUpErrorMessage, validateDisplayName, validateNewPassword, validateSignIn, validateSignUp } from "~/lib/auth-validation";

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

  it("reads non-string fields as empty and keeps the password exactly as typed", () => {
    expect(validateSignIn({ email: ["a@b.co"], password: 123456 })).toEqual({ ok: false, error: "Please fill in all fields" });
    expect(validateSignIn({ email: " a@b.co ", password: "  pass  " })).toEqual({ ok: true, value: { email: "a@b.co", password: "  pass  " } });
    expect(validateSignIn({ email: "a@b.co", password: "x".repeat(129) }).ok).toBe(false);
  });

  it("puts the password limits at exactly 6 and 128 characters", () => {
    expect(validateNewPassword("12345")).toBe("Password must be at least 6 characters long");
    expect(validateNewPassword("123456")).toBeNull();
    expect(validateNewPassword("x".repeat(128))).toBeNull();
    expect(validateNewPassword("x".repeat(129))).toBe("Password must be at most 128 characters long");
  });
});

describe("isValidEmail", () => {
  it("takes ordinary and unicode addresses up to 254 characters", () => {
    expect(isValidEmail("officer.jones+mdt@police.example.org")).toBe(true);
    expect(isValidEmail("józef@przykład.pl")).toBe(true);
    expect(isValidEmail(`${"a".repeat(240)}@example.com`)).toBe(true);
    expect(isValidEmail(`${"a".repeat(243)}@example.com`)).toBe(false);
  });

  it("refuses missing parts, spaces, a one-letter top-level domain and characters that break headers", () => {
    for (const bad of ["", "a@", "@b.co", "a@b", "a@b.c", "a b@c.de", "a@b@c.de", "a<b>@c.de", "a@b.co;evil", "a,b@c.de"]) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
  });
});

describe("display names", () => {
  it("are cleaned, 2 to 100 characters, and say why when cleaning left nothing", () => {
    expect(validateDisplayName("  Officer Jones ")).toEqual({ ok: true, value: "Officer Jones" });
    expect(validateDisplayName("")).toEqual({ ok: false, error: "Display name is required" });
    expect(validateDisplayName("   ")).toEqual({ ok: false, error: "Display name is required" });
    expect(validateDisplayName("<b></b>")).toEqual({ ok: false, error: "Display name can only be plain text: tags and scripts are removed" });
    expect(validateDisplayName("x".repeat(100)).ok).toBe(true);
    expect(validateDisplayName("x".repeat(101))).toEqual({ ok: false, error: "Display name must be at most 100 characters long" });
    expect(validateDisplayName(undefined)).toEqual({ ok: false, error: "Display name is required" });
  });
});

describe("auth error messages (spec §8)", () => {
  it("translate the backend's words and pass anything else through", () => {
    expect(signInErrorMessage("Invalid login credentials")).toBe("Invalid email or password. Please check your credentials and try again.");
    expect(signInErrorMessage("Email not confirmed")).toBe("Please check your email and click the confirmation link before signing in.");
    expect(signInErrorMessage("Too many attempts")).toBe("Too many attempts");
    expect(signUpErrorMessage("User already registered")).toBe("An account with this email already exists. Please sign in instead.");
    expect(signUpErrorMessage("other")).toBe("other");
  });
});
