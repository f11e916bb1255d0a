import type { AppLoadContext } from "react-router";
import { formError } from "~/http/action-results.server";
import { isValidEmail, MESSAGES } from "~/lib/auth-validation";
import { sanitizeInput } from "~/lib/sanitize";
import { consumeAuthLimit, tooManyAttemptsMessage, type AuthLimitName } from "~/services/accounts/sign-in-limits.server";
import { rateLimitHeaders } from "~/services/platform/rate-limits.server";

/**
 * The e-mail of a "send me a link" form (resend confirmation, password reset), or the answer to
 * give instead: the spec's messages for a missing or invalid address, 429 once the per-IP or
 * per-account budget is spent.
 */
export async function readLinkRequestEmail(
  request: Request,
  context: AppLoadContext,
  limits: { ip: AuthLimitName; account: AuthLimitName },
) {
  const raw = (await request.formData()).get("email");
  const email = sanitizeInput(typeof raw === "string" ? raw : "");
  if (!email) return { refusal: formError(MESSAGES.fillAll, 400, { sent: null }) };
  if (!isValidEmail(email)) return { refusal: formError(MESSAGES.invalidEmail, 400, { sent: null }) };
  for (const [name, key] of [[limits.ip, context.clientIp], [limits.account, email]] as const) {
    const limit = await consumeAuthLimit(context.rateLimits, name, key);
    if (!limit.allowed) {
      return { refusal: formError(tooManyAttemptsMessage(limit), 429, { sent: null }, rateLimitHeaders(limit)) };
    }
  }
  return { email };
}
