import type { Db } from "../../../db/index";
import { consumeAuthToken, issueAuthToken, type TokenCheck } from "~/services/accounts/email-tokens.server";
import { verifyPassword } from "~/services/accounts/passwords.server";
import { findUserByEmail, normaliseEmail } from "~/services/accounts/users.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { MESSAGES } from "~/lib/auth-validation";
import type { UserId } from "~/lib/ids";

/**
 * Starts moving an account to a new address: the current password proves the owner (accounts
 * without one, signed in through Discord, are proven by the session), and the link goes to the
 * new address so nobody can claim an address they cannot read. The old address stays until then.
 */
export async function startEmailChange(db: Db, input: { userId: UserId; newEmail: string; currentPassword: string }): Promise<{ token: string; newEmail: string }> {
  const newEmail = normaliseEmail(input.newEmail);
  const user = await db.selectFrom("users").select(["email", "password_hash"]).where("id", "=", input.userId).executeTakeFirstOrThrow();
  if (user.password_hash && !(await verifyPassword(user.password_hash, input.currentPassword))) {
    throw new DomainError("invalid_credentials", MESSAGES.currentPasswordWrong);
  }
  if (user.email && normaliseEmail(user.email) === newEmail) throw new DomainError("invalid_request", "That is already your email address");
  if (await findUserByEmail(db, newEmail)) throw new DomainError("email_taken", "That email address belongs to another account");
  return { token: await issueAuthToken(db, input.userId, "email_change", newEmail), newEmail };
}

/** Follows the link: the account takes the new address, now confirmed. Taken in the meantime → `taken`. */
export async function confirmEmailChange(db: Db, token: string): Promise<TokenCheck | { status: "taken" }> {
  return db.transaction().execute(async (trx) => {
    const result = await consumeAuthToken(trx, token, "email_change");
    if (result.status !== "valid" || !result.newEmail) return result.status === "valid" ? { status: "invalid" } : result;
    const owner = await findUserByEmail(trx, result.newEmail);
    if (owner && owner.id !== result.userId) return { status: "taken" };
    await trx.updateTable("users").set({ email: result.newEmail, email_verified_at: new Date() }).where("id", "=", result.userId).execute();
    return { status: "valid", userId: result.userId };
  });
}
