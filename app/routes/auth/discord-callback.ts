import type { AppLoadContext } from "react-router";
import { OAuth2RequestError } from "remix-auth-oauth2";
import { createDiscordAuthenticator } from "~/http/authenticator.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { linkDiscord, signInWithDiscord, type DiscordProfile } from "~/services/accounts/discord-accounts.server";
import { getOptionalUser, safeRedirectPath } from "~/http/guards.server";
import { redirectWithToast } from "~/http/toast.server";
import { signInAndRedirect } from "~/routes/auth/auth-actions.server";
import { discordIntentCookie } from "~/routes/auth/discord";
import type { Route } from "./+types/discord-callback";

async function clearedIntent(): Promise<Headers> {
  return new Headers({ "Set-Cookie": await discordIntentCookie.serialize("", { maxAge: 0 }) });
}

async function fail(to: string, title: string, description: string) {
  return redirectWithToast(to, { type: "error", title, description }, await clearedIntent());
}

function providerMessage(error: unknown, context: AppLoadContext): string {
  if (error instanceof OAuth2RequestError) return error.description ?? error.code;
  if (isDomainError(error, "discord_unavailable", "discord_account_conflict")) return error.message;
  if (error instanceof RangeError || error instanceof ReferenceError) {
    return "The Discord sign-in request expired or did not match. Please try again.";
  }
  context.logger.error({ err: error }, "Discord sign-in failed");
  return "Discord could not be reached. Please try again.";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const raw = (await discordIntentCookie.parse(request.headers.get("Cookie"))) as { mode?: string; redirectTo?: string } | null;
  const linking = raw?.mode === "link";
  const back = linking ? "/settings" : "/auth";
  const title = linking ? "Failed to link Discord" : "Discord sign-in failed";
  if (!context.config.discordEnabled) return fail(back, title, "Discord sign-in is not configured on this server.");

  let profile: DiscordProfile;
  try {
    profile = await createDiscordAuthenticator(context).authenticate("discord", request);
  } catch (error) {
    return fail(back, title, providerMessage(error, context));
  }

  if (linking) {
    const user = await getOptionalUser(request, context);
    if (!user) return fail("/auth", title, "No user found");
    try {
      await linkDiscord(context.db, user.id, profile);
    } catch (error) {
      return fail(back, title, providerMessage(error, context));
    }
    return redirectWithToast("/settings", { type: "success", title: "Discord linked successfully!" }, await clearedIntent());
  }

  try {
    const { user, created } = await signInWithDiscord(context.db, profile);
    const response = await signInAndRedirect(
      context,
      request,
      user.id,
      safeRedirectPath(raw?.redirectTo),
      created
        ? { title: "Welcome!", description: "Your account has been created with Discord." }
        : { title: "Welcome back!", description: "You have successfully signed in." },
    );
    response.headers.append("Set-Cookie", await discordIntentCookie.serialize("", { maxAge: 0 }));
    return response;
  } catch (error) {
    return fail(back, title, providerMessage(error, context));
  }
}
