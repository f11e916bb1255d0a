import { createCookie, redirect } from "react-router";
import { createDiscordAuthenticator } from "~/http/authenticator.server";
import { requireUser, safeRedirectPath } from "~/http/guards.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/discord";

/** What the Discord round trip is for: signing in (and where to go after) or linking to the signed-in account. */
export const discordIntentCookie = createCookie("stash_discord_intent", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 10 * 60 });

export async function loader() {
  return redirect("/auth");
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.clone().formData();
  const mode = form.get("intent") === "link" ? "link" : "signin";
  if (!context.config.discordEnabled) {
    return redirectWithToast(mode === "link" ? "/settings" : "/auth", {
      type: "error",
      title: mode === "link" ? "Failed to link Discord" : "Discord sign-in failed",
      description: "Discord sign-in is not configured on this server.",
    });
  }
  if (mode === "link") await requireUser(request, context);
  const intent = { mode, redirectTo: safeRedirectPath(form.get("redirectTo")) };
  try {
    await createDiscordAuthenticator(context).authenticate("discord", request);
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      thrown.headers.append("Set-Cookie", await discordIntentCookie.serialize(intent));
      throw thrown;
    }
    throw thrown;
  }
  return redirect("/auth");
}
