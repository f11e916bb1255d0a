import { sanitizeInput } from "~/lib/sanitize";

/** Shared by the /auth forms (on submit, in the browser) and their actions (on the server). */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const DISPLAY_NAME_MIN = 2;
export const DISPLAY_NAME_MAX = 100;
export const EMAIL_MAX = 254;

export const MESSAGES = {
  fillAll: "Please fill in all fields",
  invalidEmail: "Please enter a valid email address",
  passwordShort: `Password must be at least ${PASSWORD_MIN} characters long`,
  passwordLong: `Password must be at most ${PASSWORD_MAX} characters long`,
  displayNameShort: `Display name must be at least ${DISPLAY_NAME_MIN} characters long`,
  displayNameLong: `Display name must be at most ${DISPLAY_NAME_MAX} characters long`,
  displayNameRequired: "Display name is required",
  /** Typed text that cleaning removed entirely: say so, rather than that the field was left empty. */
  displayNameMarkup: "Display name can only be plain text: tags and scripts are removed",
  passwordsDiffer: "Passwords do not match",
  currentPasswordWrong: "Your current password is not correct",
} as const;

const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX && EMAIL_PATTERN.test(email);
}

type Result<T> = { ok: true; value: T } | { ok: false; error: string };

function field(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function validateSignIn(input: { email?: unknown; password?: unknown }): Result<{ email: string; password: string }> {
  const email = sanitizeInput(field(input.email));
  const password = field(input.password);
  if (!email || !password) return { ok: false, error: MESSAGES.fillAll };
  if (!isValidEmail(email)) return { ok: false, error: MESSAGES.invalidEmail };
  if (password.length > PASSWORD_MAX) return { ok: false, error: MESSAGES.passwordLong };
  return { ok: true, value: { email, password } };
}

export function validateNewPassword(password: string): string | null {
  if (password.length < PASSWORD_MIN) return MESSAGES.passwordShort;
  if (password.length > PASSWORD_MAX) return MESSAGES.passwordLong;
  return null;
}

export function validateSignUp(input: {
  displayName?: unknown;
  email?: unknown;
  password?: unknown;
}): Result<{ displayName: string; email: string; password: string }> {
  const displayName = sanitizeInput(field(input.displayName));
  const email = sanitizeInput(field(input.email));
  const password = field(input.password);
  if (!displayName && field(input.displayName).trim()) return { ok: false, error: MESSAGES.displayNameMarkup };
  if (!displayName || !email || !password) return { ok: false, error: MESSAGES.fillAll };
  if (!isValidEmail(email)) return { ok: false, error: MESSAGES.invalidEmail };
  const passwordProblem = validateNewPassword(password);
  if (passwordProblem) return { ok: false, error: passwordProblem };
  if (displayName.length < DISPLAY_NAME_MIN) return { ok: false, error: MESSAGES.displayNameShort };
  if (displayName.length > DISPLAY_NAME_MAX) return { ok: false, error: MESSAGES.displayNameLong };
  return { ok: true, value: { displayName, email, password } };
}

/** A new display name as Settings takes it: cleaned like every text input, then 2–100 characters. */
export function validateDisplayName(value: unknown): Result<string> {
  const displayName = sanitizeInput(field(value));
  if (!displayName) return { ok: false, error: field(value).trim() ? MESSAGES.displayNameMarkup : MESSAGES.displayNameRequired };
  if (displayName.length < DISPLAY_NAME_MIN) return { ok: false, error: MESSAGES.displayNameShort };
  if (displayName.length > DISPLAY_NAME_MAX) return { ok: false, error: MESSAGES.displayNameLong };
  return { ok: true, value: displayName };
}

/** Spec §8: what the auth backend says, as the user reads it. */
export function signInErrorMessage(serverMessage: string): string {
  if (serverMessage === "Invalid login credentials") {
    return "Invalid email or password. Please check your credentials and try again.";
  }
  if (serverMessage === "Email not confirmed") {
    return "Please check your email and click the confirmation link before signing in.";
  }
  return serverMessage;
}

export function signUpErrorMessage(serverMessage: string): string {
  if (serverMessage === "User already registered") {
    return "An account with this email already exists. Please sign in instead.";
  }
  return serverMessage;
}
