import type { AppLoadContext } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { User } from "../../db/schema.ts";
import { validateSignIn } from "../lib/auth-validation.ts";
import { AuthError, verifyCredentials } from "./accounts.server.ts";

/**
 * remix-auth strategies bound to this request's context (they need the database). The
 * authenticator only answers "who is this"; sessions are ours (sessions.server.ts).
 */
export function createAuthenticator(context: AppLoadContext): Authenticator<User> {
  const authenticator = new Authenticator<User>();
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const parsed = validateSignIn({ email: form.get("email"), password: form.get("password") });
      if (!parsed.ok) throw new AuthError(parsed.error);
      return verifyCredentials(context.db, parsed.value.email, parsed.value.password);
    }),
    "password",
  );
  return authenticator;
}
