import { data, Form, Link, useNavigation } from "react-router";
import { AuthField, FormError } from "~/components/auth/auth-fields";
import { AuthCard, AuthFrame, FormNotice } from "~/components/auth/auth-frame";
import { Button } from "~/components/ui/button";
import { isValidEmail, MESSAGES } from "~/lib/auth-validation";
import { sanitizeInput } from "~/lib/sanitize";
import { pageTitle } from "~/lib/site";
import { confirmEmail, renewEmailConfirmation } from "~/services/accounts.server";
import { consumeAuthLimit, tooManyAttemptsMessage } from "~/services/auth-limits.server";
import { rateLimitHeaders } from "~/services/rate-limit.server";
import { signInAndRedirect } from "./auth-actions.server";
import { sendAccountMailInBackground } from "./auth-mail.server";
import type { Route } from "./+types/confirm";

const RESEND_ANSWER = "If that address has an account waiting for confirmation, a new link is on its way. Check your inbox.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const base = { appName: context.config.APP_NAME };
  if (!token) return { ...base, problem: null };
  const result = await confirmEmail(context.db, token);
  if (result.status === "valid") {
    throw await signInAndRedirect(context, request, result.userId, "/dashboard", {
      title: "Email confirmed",
      description: "Your account is ready. Welcome!",
    });
  }
  const problem =
    result.status === "expired"
      ? "This confirmation link has expired."
      : result.status === "used"
        ? "This confirmation link has already been used. If your address is confirmed, you can sign in."
        : "This confirmation link is not valid.";
  return data({ ...base, problem }, { status: 410 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const raw = form.get("email");
  const email = sanitizeInput(typeof raw === "string" ? raw : "");
  if (!email) return data({ error: MESSAGES.fillAll, sent: null }, { status: 400 });
  if (!isValidEmail(email)) return data({ error: MESSAGES.invalidEmail, sent: null }, { status: 400 });
  for (const [name, key] of [["resendIp", context.clientIp], ["resendAccount", email]] as const) {
    const limit = await consumeAuthLimit(context.rateLimits, name, key);
    if (!limit.allowed) return data({ error: tooManyAttemptsMessage(limit), sent: null }, { status: 429, headers: rateLimitHeaders(limit) });
  }
  const renewed = await renewEmailConfirmation(context.db, email);
  if (renewed) sendAccountMailInBackground(context, "confirm", renewed.user.email!, renewed.token);
  return { error: null, sent: RESEND_ANSWER };
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Retry-After") ? actionHeaders : loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle("Confirm your email", loaderData?.appName) }];
}

export default function ConfirmPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <AuthFrame appName={loaderData.appName}>
      <AuthCard
        title={loaderData.problem ? "Confirmation link problem" : "Resend confirmation email"}
        description={loaderData.problem ?? "Enter your email address and we will send you a new confirmation link."}
      >
        {actionData?.sent ? (
          <FormNotice message={actionData.sent} />
        ) : (
          <Form method="post" className="space-y-4">
            <FormError message={actionData?.error} />
            <AuthField id="resend-email" label="Email" name="email" type="email" autoComplete="email" maxLength={254} disabled={busy} />
            <Button type="submit" className="w-full" disabled={busy}>
              {busy ? "Sending..." : "Send a new link"}
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
