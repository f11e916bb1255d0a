import type { Db } from "../../db/index.ts";
import type { User } from "../../db/schema.ts";
import { hashPassword, verifyPassword } from "./passwords.server.ts";
import { createUser, findUserByEmail } from "./users.server.ts";

/** An auth failure carrying the backend message the spec's catalogue translates (§8). */
export class AuthError extends Error {
  constructor(message: "Invalid login credentials" | "Email not confirmed" | (string & {})) {
    super(message);
    this.name = "AuthError";
  }
}

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
    throw new AuthError("Invalid login credentials");
  }
  if (!(await verifyPassword(user.password_hash, password))) throw new AuthError("Invalid login credentials");
  if (!user.email_verified_at) throw new AuthError("Email not confirmed");
  return user;
}

export async function registerWithPassword(
  db: Db,
  input: { email: string; password: string; displayName: string },
): Promise<User> {
  return createUser(db, { email: input.email, password: input.password, displayName: input.displayName });
}
