import { data, Form, Link, useNavigation } from "react-router";
import { AuthField, FormError } from "~/components/auth/auth-fields";
import { AuthCard, AuthFrame, FormNotice } from "~/components/auth/auth-frame";
import { Button } from "~/components/ui/button";
import { isValidEmail, MESSAGES } from "~/lib/auth-validation";
import { sanitizeInput } from "~/lib/sanitize";
import { pageTitle } from "~/lib/site";
import { startPasswordReset } from "~/services/accounts.server";
import { consumeAuthLimit, tooManyAttemptsMessage } from "~/services/auth-limits.server";
import { rateLimitHeaders } from "~/services/rate-limit.server";
import { sendAccountMailInBackground } from "./auth-mail.server";
import type { Route } from "./+types/forgot-password";

const RESET_ANSWER = "If an account exists for that email, a password reset link is on its way. Check your inbox.";

export async function loader({ context }: Route.LoaderArgs) {
  return { appName: context.config.APP_NAME };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const raw = form.get("email");
  const email = sanitizeInput(typeof raw === "string" ? raw : "");
  if (!email) return data({ error: MESSAGES.fillAll, sent: null }, { status: 400 });
  if (!isValidEmail(email)) return data({ error: MESSAGES.invalidEmail, sent: null }, { status: 400 });
  for (const [name, key] of [["resetIp", context.clientIp], ["resetAccount", email]] as const) {
    const limit = await consumeAuthLimit(context.rateLimits, name, key);
    if (!limit.allowed) return data({ error: tooManyAttemptsMessage(limit), sent: null }, { status: 429, headers: rateLimitHeaders(limit) });
  }
  const reset = await startPasswordReset(context.db, email);
  if (reset) sendAccountMailInBackground(context, "reset", reset.user.email!, reset.token);
  return { error: null, sent: RESET_ANSWER };
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Retry-After") ? actionHeaders : loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle("Forgot password", loaderData?.appName) }];
}

export default function ForgotPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <AuthFrame appName={loaderData.appName}>
      <AuthCard title="Forgot password?" description="Enter your email address and we will send you a link to choose a new password.">
        {actionData?.sent ? (
          <FormNotice message={actionData.sent} />
        ) : (
          <Form method="post" className="space-y-4">
            <FormError message={actionData?.error} />
            <AuthField id="forgot-email" label="Email" name="email" type="email" autoComplete="email" maxLength={254} disabled={busy} />
            <Button type="submit" className="w-full" disabled={busy}>
              {busy ? "Sending..." : "Send reset link"}
            </Button>
          </Form>
        )}
        <p className="text-center text-sm">
          <Link to="/auth" className="text-primary underline-offset-4 hover:underline">
            Back to sign in
          </Link>
        </p>
      </AuthCard>
    </AuthFrame>
  );
}
