import type { AppLoadContext } from "react-router";
import { formError } from "~/http/action-results.server";
import type { ActionResult } from "~/lib/action-result";
import { signInErrorMessage, signUpErrorMessage, validateSignUp } from "~/lib/auth-validation";
import { sanitizeInput } from "~/lib/sanitize";
import { sendAccountMail } from "~/services/accounts/account-mail.server";
import { registerWithPassword } from "~/services/accounts/password-accounts.server";
import { consumeAuthLimit, refundAuthLimit, tooManyAttemptsMessage } from "~/services/accounts/sign-in-limits.server";
import { createAuthenticator } from "~/http/authenticator.server";
import { safeRedirectPath } from "~/http/guards.server";
import { rateLimitHeaders, type LimitResult } from "~/services/platform/rate-limits.server";
import { createSession, serializeSessionCookie } from "~/services/accounts/sessions.server";
import { redirectWithToast } from "~/http/toast.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { ERROR_STATUS } from "~/http/api-response.server";
import type { UserId } from "~/lib/ids";

export interface AuthActionData extends ActionResult {
  intent: "signin" | "signup" | null;
  fields?: { email?: string; displayName?: string };
  /** The address is not confirmed yet: offer to send the link again. */
  offerResend?: boolean;
}

/** What an auth form keeps beside its message: which tab answered, the typed fields, the resend offer. */
export type AuthFormState = Omit<AuthActionData, keyof ActionResult>;

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

function refused(intent: AuthActionData["intent"], limit: LimitResult, fields: AuthActionData["fields"]) {
  return formError<AuthFormState>(tooManyAttemptsMessage(limit), 429, { intent, fields }, rateLimitHeaders(limit));
}

/** Starts a fresh session (a new id at every sign-in) and sends the user on with a toast. */
export async function signInAndRedirect(
  context: AppLoadContext,
  request: Request,
  userId: UserId,
  to: string,
  toast: { title: string; description?: string },
) {
  const session = await createSession(context.db, {
    userId,
    ip: context.clientIp,
    userAgent: request.headers.get("User-Agent"),
  });
  const sessionCookie = new Headers({ "Set-Cookie": serializeSessionCookie(context.config, session.token, session.expiresAt) });
  return redirectWithToast(to, { type: "success", ...toast }, sessionCookie);
}

export async function handleSignIn(request: Request, form: FormData, context: AppLoadContext) {
  const fields = { email: sanitizeInput(text(form, "email")).slice(0, 254) };
  const ipLimit = await consumeAuthLimit(context.rateLimits, "signInIp", context.clientIp);
  if (!ipLimit.allowed) return refused("signin", ipLimit, fields);
  // Consumed before the password is checked and refunded on success, so parallel guesses from many
  // addresses cannot all pass a check made before any of them is counted.
  const accountLimit = await consumeAuthLimit(context.rateLimits, "signInAccountFailures", fields.email);
  if (!accountLimit.allowed) return refused("signin", accountLimit, fields);

  try {
    const user = await createAuthenticator(context).authenticate("password", request);
    await refundAuthLimit(context.rateLimits, "signInAccountFailures", fields.email);
    return signInAndRedirect(context, request, user.id, safeRedirectPath(form.get("redirectTo")), {
      title: "Welcome back!",
      description: "You have successfully signed in.",
    });
  } catch (error) {
    if (!isDomainError(error, "invalid_credentials", "email_not_confirmed", "invalid_request")) throw error;
    // Only a wrong password counts against the account; an unconfirmed e-mail or a missing field does not.
    if (error.code !== "invalid_credentials") await refundAuthLimit(context.rateLimits, "signInAccountFailures", fields.email);
    return formError<AuthFormState>(signInErrorMessage(error.message), ERROR_STATUS[error.code], {
      intent: "signin",
      fields,
      offerResend: error.code === "email_not_confirmed",
    });
  }
}

export async function handleSignUp(form: FormData, context: AppLoadContext) {
  const fields = {
    email: sanitizeInput(text(form, "email")).slice(0, 254),
    displayName: sanitizeInput(text(form, "displayName")).slice(0, 100),
  };
  const parsed = validateSignUp({
    displayName: text(form, "displayName"),
    email: text(form, "email"),
    password: text(form, "password"),
  });
  if (!parsed.ok) return formError<AuthFormState>(parsed.error, 400, { intent: "signup", fields });
  const ipLimit = await consumeAuthLimit(context.rateLimits, "signUpIp", context.clientIp);
  if (!ipLimit.allowed) return refused("signup", ipLimit, fields);

  let registered: Awaited<ReturnType<typeof registerWithPassword>>;
  try {
    registered = await registerWithPassword(context.db, parsed.value);
  } catch (error) {
    if (!isDomainError(error, "email_taken")) throw error;
    return formError<AuthFormState>(signUpErrorMessage(error.message), ERROR_STATUS[error.code], { intent: "signup", fields });
  }
  try {
    await sendAccountMail(context, "confirm", registered.user.email!, registered.confirmToken);
  } catch (error) {
    // The account exists either way; the confirmation page can send the link again.
    context.logger.error({ err: error, userId: registered.user.id }, "confirmation mail could not be sent");
  }
  return redirectWithToast("/auth", {
    type: "success",
    title: "Account created!",
    description: "Please check your email to confirm your account before signing in.",
  });
}
