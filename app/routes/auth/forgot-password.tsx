import { useNavigation } from "react-router";
import type { ActionResult } from "~/lib/action-result";
import { AuthCard, AuthFrame } from "~/components/auth/auth-frame";
import { EmailLinkForm } from "~/components/auth/email-link-form";
import { pageTitle } from "~/lib/site";
import { startPasswordReset } from "~/services/accounts/password-accounts.server";
import { sendAccountMailInBackground } from "~/routes/auth/auth-mail.server";
import { readLinkRequestEmail } from "~/routes/auth/email-request.server";
import type { Route } from "./+types/forgot-password";

const RESET_ANSWER = "If an account exists for that email, a password reset link is on its way. Check your inbox.";

export async function loader({ context }: Route.LoaderArgs) {
  return { appName: context.config.APP_NAME };
}

export async function action({ request, context }: Route.ActionArgs) {
  const linkRequest = await readLinkRequestEmail(request, context, { ip: "resetIp", account: "resetAccount" });
  if (linkRequest.refusal) return linkRequest.refusal;
  const email = linkRequest.email;
  const reset = await startPasswordReset(context.db, email);
  if (reset) sendAccountMailInBackground(context, "reset", reset.user.email!, reset.token);
  return { ok: true, error: undefined, sent: RESET_ANSWER } satisfies ActionResult & { sent: string };
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
        <EmailLinkForm id="forgot-email" submitLabel="Send reset link" busy={busy} error={actionData?.error} sent={actionData?.sent} />
      </AuthCard>
    </AuthFrame>
  );
}
