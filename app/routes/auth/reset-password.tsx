import { data, Form, Link, useNavigation } from "react-router";
import { formError } from "~/http/action-results.server";
import { AuthField, FormError } from "~/components/auth/auth-fields";
import { AuthCard, AuthFrame } from "~/components/auth/auth-frame";
import { Button } from "~/components/ui/button";
import { validateNewPassword } from "~/lib/auth-validation";
import { pageTitle } from "~/lib/site";
import { resetPassword } from "~/services/accounts/password-accounts.server";
import { checkAuthToken, type TokenCheck } from "~/services/accounts/email-tokens.server";
import { signInAndRedirect } from "~/routes/auth/auth-actions.server";
import type { Route } from "./+types/reset-password";

function linkProblem(result: Exclude<TokenCheck, { status: "valid" }>): string {
  if (result.status === "expired") return "This password reset link has expired. Ask for a new one below.";
  if (result.status === "used") return "This password reset link has already been used. Ask for a new one below.";
  return "This password reset link is not valid. Ask for a new one below.";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const check = await checkAuthToken(context.db, token, "password_reset");
  const problem = check.status === "valid" ? null : linkProblem(check);
  return data({ appName: context.config.APP_NAME, token, problem }, { status: problem ? 410 : 200 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const token = String(form.get("token") ?? "");
  const password = String(form.get("password") ?? "");
  const confirm = String(form.get("confirmPassword") ?? "");
  if (!password || !confirm) return formError("Please fill in all fields", 400);
  const problem = validateNewPassword(password);
  if (problem) return formError(problem, 400);
  if (password !== confirm) return formError("Passwords do not match", 400);
  const result = await resetPassword(context.db, token, password);
  if (result.status !== "valid") return formError(linkProblem(result), 410);
  return signInAndRedirect(context, request, result.userId, "/dashboard", {
    title: "Password updated",
    description: "Your new password is set and every other session has been signed out.",
  });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle("Choose a new password", loaderData?.appName) }];
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  if (loaderData.problem) {
    return (
      <AuthFrame appName={loaderData.appName}>
        <AuthCard title="Reset link problem" description={loaderData.problem}>
          <Button asChild className="w-full">
            <Link to="/auth/forgot-password">Send a new reset link</Link>
          </Button>
        </AuthCard>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame appName={loaderData.appName}>
      <AuthCard title="Choose a new password" description="At least 6 characters. Every other session will be signed out.">
        <Form method="post" className="space-y-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <FormError message={actionData?.error} />
          <AuthField id="new-password" label="New Password" name="password" type="password" autoComplete="new-password" maxLength={128} disabled={busy} />
          <AuthField id="confirm-password" label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" maxLength={128} disabled={busy} />
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Saving..." : "Set new password"}
          </Button>
        </Form>
      </AuthCard>
    </AuthFrame>
  );
}
