import type { Db } from "../../../db/index";
import type { User } from "../../../db/schema";
import { consumeAuthToken, issueAuthToken, type TokenCheck } from "~/services/accounts/email-tokens.server";
import { hashPassword, verifyPassword } from "~/services/accounts/passwords.server";
import { revokeUserSessions } from "~/services/accounts/sessions.server";
import { createUser, findUserByEmail } from "~/services/accounts/users.server";
import { DomainError } from "~/services/platform/domain-error.server";
import type { UserId } from "~/lib/ids";

let dummyHash: Promise<string> | undefined;

/**
 * Checks an e-mail and password. An unknown address costs the same hash as a known one, and
 * "Email not confirmed" is only said after the right password, so neither reveals who has an account.
 */
export async function verifyCredentials(db: Db, email: string, password: string): Promise<User> {
  const user = await findUserByEmail(db, email);
  if (!user?.password_hash) {
    dummyHash ??= hashPassword("not a real password");
    await verifyPassword(await dummyHash, password);
    throw new DomainError("invalid_credentials", "Invalid login credentials");
  }
  if (!(await verifyPassword(user.password_hash, password))) throw new DomainError("invalid_credentials", "Invalid login credentials");
  if (!user.email_verified_at) throw new DomainError("email_not_confirmed", "Email not confirmed");
  return user;
}

/** Creates an unconfirmed account and the token for its confirmation link. */
export async function registerWithPassword(
  db: Db,
  input: { email: string; password: string; displayName: string },
): Promise<{ user: User; confirmToken: string }> {
  const user = await createUser(db, { email: input.email, password: input.password, displayName: input.displayName });
  return { user, confirmToken: await issueAuthToken(db, user.id, "email_confirm") };
}

/** A fresh confirmation token for an unconfirmed account; null when there is nothing to confirm. */
export async function renewEmailConfirmation(db: Db, email: string): Promise<{ user: User; token: string } | null> {
  const user = await findUserByEmail(db, email);
  if (!user?.email || user.email_verified_at) return null;
  return { user, token: await issueAuthToken(db, user.id, "email_confirm") };
}

export async function confirmEmail(db: Db, token: string): Promise<TokenCheck> {
  const result = await consumeAuthToken(db, token, "email_confirm");
  if (result.status === "valid") {
    await db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", result.userId).where("email_verified_at", "is", null).execute();
  }
  return result;
}

/** A reset token for a known address; null for an unknown one (the caller answers the same either way). */
export async function startPasswordReset(db: Db, email: string): Promise<{ user: User; token: string } | null> {
  const user = await findUserByEmail(db, email);
  if (!user?.email) return null;
  return { user, token: await issueAuthToken(db, user.id, "password_reset") };
}

/**
 * Sets the new password and ends every session of the account. Following the mailed link
 * proves the address, so an unconfirmed one counts as confirmed from here on.
 */
export async function resetPassword(db: Db, token: string, newPassword: string): Promise<TokenCheck> {
  const passwordHash = await hashPassword(newPassword);
  const result = await consumeAuthToken(db, token, "password_reset");
  if (result.status !== "valid") return result;
  await db
    .updateTable("users")
    .set((eb) => ({ password_hash: passwordHash, email_verified_at: eb.fn.coalesce("email_verified_at", eb.val(new Date())) }))
    .where("id", "=", result.userId)
    .execute();
  await revokeUserSessions(db, result.userId);
  return result;
}

/**
 * Sets a new password for a signed-in user who proves the current one, and ends every other session
 * (a stolen cookie stops working the moment the owner changes the password).
 */
export async function changePassword(db: Db, input: { userId: UserId; currentPassword: string; newPassword: string; keepSessionId: string }): Promise<void> {
  const user = await db.selectFrom("users").select("password_hash").where("id", "=", input.userId).executeTakeFirst();
  if (!user?.password_hash || !(await verifyPassword(user.password_hash, input.currentPassword))) {
    throw new DomainError("invalid_credentials", "Your current password is not correct");
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", input.userId).execute();
  await revokeUserSessions(db, input.userId, { exceptId: input.keepSessionId });
}
