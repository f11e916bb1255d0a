import type { AppLoadContext } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { OAuth2Strategy } from "remix-auth-oauth2";
import type { User } from "../../db/schema";
import { validateSignIn } from "~/lib/auth-validation";
import { verifyCredentials } from "~/services/accounts/password-accounts.server";
import { fetchDiscordProfile, type DiscordProfile } from "~/services/accounts/discord-accounts.server";
import { DomainError } from "~/services/platform/domain-error.server";

export const DISCORD_STATE_COOKIE = "stash_discord_state";

/**
 * remix-auth strategies bound to this request's context (they need the database). The
 * authenticator only answers "who is this"; sessions are ours (sessions.server.ts).
 */
export function createAuthenticator(context: AppLoadContext): Authenticator<User> {
  const authenticator = new Authenticator<User>();
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const parsed = validateSignIn({ email: form.get("email"), password: form.get("password") });
      if (!parsed.ok) throw new DomainError("invalid_request", parsed.error);
      return verifyCredentials(context.db, parsed.value.email, parsed.value.password);
    }),
    "password",
  );
  return authenticator;
}

/** Discord through remix-auth-oauth2 (PKCE, state in a short-lived cookie); yields the Discord profile. */
export function createDiscordAuthenticator(context: AppLoadContext): Authenticator<DiscordProfile> {
  const { config } = context;
  if (!config.DISCORD_CLIENT_ID || !config.DISCORD_CLIENT_SECRET) throw new Error("Discord is not configured");
  const apiBase = config.DISCORD_API_BASE.replace(/\/+$/, "");
  const authenticator = new Authenticator<DiscordProfile>();
  authenticator.use(
    new OAuth2Strategy(
      {
        cookie: {
          name: config.cookieSecure ? `__Host-${DISCORD_STATE_COOKIE}` : DISCORD_STATE_COOKIE,
          path: "/",
          httpOnly: true,
          sameSite: "Lax",
          ...(config.cookieSecure ? { secure: true as const } : {}),
          maxAge: 10 * 60,
        },
        clientId: config.DISCORD_CLIENT_ID,
        clientSecret: config.DISCORD_CLIENT_SECRET,
        authorizationEndpoint: config.DISCORD_AUTHORIZE_URL,
        tokenEndpoint: `${apiBase}/oauth2/token`,
        tokenRevocationEndpoint: `${apiBase}/oauth2/token/revoke`,
        redirectURI: `${config.appUrl}/auth/discord/callback`,
        scopes: ["identify", "email"],
      },
      async ({ tokens }) => fetchDiscordProfile(apiBase, tokens.accessToken()),
    ),
    "discord",
  );
  return authenticator;
}
