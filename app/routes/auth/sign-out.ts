import { redirect } from "react-router";
import { actionFail } from "~/http/action-results.server";
import { clearSessionCookie, readSessionToken, revokeSession } from "~/services/accounts/sessions.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/sign-out";

export async function loader() {
  // Signing out changes state, so it is a POST; a stray GET just goes home.
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const token = readSessionToken(context.config, request.headers.get("Cookie"));
  if (token) {
    try {
      await revokeSession(context.db, token);
    } catch (error) {
      context.logger.error({ err: error }, "sign-out failed");
      return actionFail("Error signing out", undefined, 500);
    }
  }
  return redirectWithToast(
    "/auth",
    { type: "success", title: "Signed out successfully", description: "You have been signed out of your account." },
    new Headers({ "Set-Cookie": clearSessionCookie(context.config) }),
  );
}
