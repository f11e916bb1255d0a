import type { Db } from "../../../db/index";
import type { Role, User } from "../../../db/schema";
import { hashPassword } from "~/services/accounts/passwords.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { createTeam } from "~/services/teams/teams.server";
import type { UserId } from "~/lib/ids";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Spec: display name from sign-up, else the part of the e-mail before @, else "User". */
export function defaultDisplayName(displayName: string | null | undefined, email: string | null | undefined): string {
  const trimmed = displayName?.trim();
  if (trimmed) return trimmed;
  const local = email?.split("@")[0]?.trim();
  return local || "User";
}

export interface CreateUserInput {
  /** Null for an account made through a provider that gave no confirmed address. */
  email: string | null;
  password?: string;
  displayName?: string | null;
  avatarUrl?: string | null;
  role?: Role;
  verified?: boolean;
  /** A provider identity created with the account, in the same transaction. */
  identity?: { provider: string; providerUserId: string; username: string | null; avatar: string | null; email: string | null };
}

export async function createUser(db: Db, input: CreateUserInput): Promise<User> {
  const email = input.email === null ? null : normaliseEmail(input.email);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db.transaction().execute(async (trx) => {
    if (email !== null) {
      const existing = await trx.selectFrom("users").select("id").where((eb) => eb(eb.fn("lower", ["email"]), "=", email)).executeTakeFirst();
      if (existing) throw new DomainError("email_taken", "User already registered");
    }
    const user = await trx
      .insertInto("users")
      .values({
        email,
        password_hash: passwordHash,
        display_name: defaultDisplayName(input.displayName, email),
        avatar_url: input.avatarUrl ?? null,
        role: input.role ?? "user",
        email_verified_at: input.verified ? new Date() : null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
      .catch((error: { code?: string }) => {
        if (error.code === "23505") throw new DomainError("email_taken", "User already registered");
        throw error;
      });
    await createTeam(trx, { name: user.display_name ?? "Personal", ownerUserId: user.id });
    if (input.identity) {
      const { provider, providerUserId, username, avatar, email: providerEmail } = input.identity;
      await trx
        .insertInto("identities")
        .values({ user_id: user.id, provider, provider_user_id: providerUserId, username, avatar, email: providerEmail })
        .execute();
    }
    return user;
  });
}

export function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return db
    .selectFrom("users")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", normaliseEmail(email)))
    .executeTakeFirst();
}

export function findUserById(db: Db, id: UserId): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function updateDisplayName(db: Db, userId: UserId, displayName: string): Promise<void> {
  await db.updateTable("users").set({ display_name: displayName }).where("id", "=", userId).execute();
}
