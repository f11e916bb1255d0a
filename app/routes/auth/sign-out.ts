import { data, redirect } from "react-router";
import { clearSessionCookie, readSessionToken, revokeSession } from "~/services/accounts/sessions.server";
import { createToastHeaders } from "~/http/toast.server";
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
      return data({ error: "Error signing out" }, { status: 500 });
    }
  }
  const headers = await createToastHeaders({
    type: "success",
    title: "Signed out successfully",
    description: "You have been signed out of your account.",
  });
  headers.append("Set-Cookie", clearSessionCookie(context.config));
  return redirect("/auth", { headers });
}
