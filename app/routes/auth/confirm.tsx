import { data, useNavigation } from "react-router";
import type { ActionResult } from "~/lib/action-result";
import { AuthCard, AuthFrame } from "~/components/auth/auth-frame";
import { EmailLinkForm } from "~/components/auth/email-link-form";
import { pageTitle } from "~/lib/site";
import { confirmEmail, renewEmailConfirmation } from "~/services/accounts/password-accounts.server";
import { signInAndRedirect } from "~/routes/auth/auth-actions.server";
import { sendAccountMailInBackground } from "~/routes/auth/auth-mail.server";
import { readLinkRequestEmail } from "~/routes/auth/email-request.server";
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
  const linkRequest = await readLinkRequestEmail(request, context, { ip: "resendIp", account: "resendAccount" });
  if (linkRequest.refusal) return linkRequest.refusal;
  const email = linkRequest.email;
  const renewed = await renewEmailConfirmation(context.db, email);
  if (renewed) sendAccountMailInBackground(context, "confirm", renewed.user.email!, renewed.token);
  return { ok: true, error: undefined, sent: RESEND_ANSWER } satisfies ActionResult & { sent: string };
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
        <EmailLinkForm id="resend-email" submitLabel="Send a new link" busy={busy} error={actionData?.error} sent={actionData?.sent} />
      </AuthCard>
    </AuthFrame>
  );
}
