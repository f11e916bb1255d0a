import { data, Link } from "react-router";
import { AuthCard, AuthFrame } from "~/components/auth/auth-frame";
import { Button } from "~/components/ui/button";
import { pageTitle } from "~/lib/site";
import { confirmEmailChange } from "~/services/accounts/email-change.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/confirm-email-change";

const PROBLEMS = {
  expired: "This link has expired. Ask for a new one under Settings → Email address.",
  used: "This link has already been used.",
  invalid: "This link is not valid.",
  taken: "Another account started using that address in the meantime, so yours was not changed.",
} as const;

/** The link mailed to a new address: following it moves the account there. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const result = await confirmEmailChange(context.db, token);
  if (result.status === "valid") {
    throw await redirectWithToast("/settings", { type: "success", title: "Email updated", description: "Sign in with your new address from now on." });
  }
  return data({ appName: context.config.APP_NAME, problem: PROBLEMS[result.status] }, { status: 410 });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle("Confirm your new email", loaderData?.appName) }];
}

export default function ConfirmEmailChange({ loaderData }: Route.ComponentProps) {
  return (
    <AuthFrame appName={loaderData.appName}>
      <AuthCard title="Email change link problem" description={loaderData.problem}>
        <Button asChild className="w-full">
          <Link to="/settings">Go to Settings</Link>
        </Button>
      </AuthCard>
    </AuthFrame>
  );
}
