import type { Db } from "../../../db/index";
import type { User } from "../../../db/schema";
import { createUser, findUserByEmail, findUserById } from "~/services/accounts/users.server";
import { DomainError, isDomainError } from "~/services/platform/domain-error.server";
import type { UserId } from "~/lib/ids";

export interface DiscordProfile {
  id: string;
  username: string;
  globalName: string | null;
  avatar: string | null;
  email: string | null;
  verified: boolean;
}

const EMAIL_IN_USE =
  "An account with this Discord email already exists. Sign in with your email and password, then link Discord in Settings.";

export function discordAvatarUrl(profile: Pick<DiscordProfile, "id" | "avatar">): string | null {
  return profile.avatar ? `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.png` : null;
}

/** Reads the signed-in Discord user from `{apiBase}/users/@me`. */
export async function fetchDiscordProfile(apiBase: string, accessToken: string): Promise<DiscordProfile> {
  const res = await fetch(`${apiBase.replace(/\/+$/, "")}/users/@me`, { headers: { Authorization: `Bearer ${accessToken}` } });
  if (!res.ok) throw new DomainError("discord_unavailable", `Discord did not return your profile (HTTP ${res.status}).`);
  const body = (await res.json()) as Record<string, unknown>;
  if (typeof body.id !== "string" || typeof body.username !== "string") throw new DomainError("discord_unavailable", "Discord returned an unexpected profile.");
  return {
    id: body.id,
    username: body.username,
    globalName: typeof body.global_name === "string" ? body.global_name : null,
    avatar: typeof body.avatar === "string" ? body.avatar : null,
    email: typeof body.email === "string" ? body.email : null,
    verified: body.verified === true,
  };
}

export function getDiscordIdentity(db: Db, userId: UserId) {
  return db.selectFrom("identities").selectAll().where("user_id", "=", userId).where("provider", "=", "discord").executeTakeFirst();
}

/**
 * The account for a Discord sign-in: found by the Discord user id, else created from the Discord
 * profile. An address that already belongs to a local account is never merged silently: the owner
 * signs in with their password and links Discord from Settings.
 */
export async function signInWithDiscord(db: Db, profile: DiscordProfile): Promise<{ user: User; created: boolean }> {
  const identity = await db
    .selectFrom("identities")
    .select("user_id")
    .where("provider", "=", "discord")
    .where("provider_user_id", "=", profile.id)
    .executeTakeFirst();
  if (identity) {
    const user = await findUserById(db, identity.user_id);
    if (user) return { user, created: false };
  }
  const email = profile.email && profile.verified ? profile.email : null;
  if (email && (await findUserByEmail(db, email))) {
    throw new DomainError("discord_account_conflict", EMAIL_IN_USE);
  }
  const user = await createUser(db, {
    email,
    displayName: profile.globalName ?? profile.username,
    avatarUrl: discordAvatarUrl(profile),
    verified: Boolean(email),
    identity: { provider: "discord", providerUserId: profile.id, username: profile.username, avatar: profile.avatar, email: profile.email },
  }).catch((error: unknown) => {
    if (isDomainError(error, "email_taken")) throw new DomainError("discord_account_conflict", EMAIL_IN_USE);
    throw error;
  });
  return { user, created: true };
}

export async function linkDiscord(db: Db, userId: UserId, profile: DiscordProfile): Promise<void> {
  const owner = await db
    .selectFrom("identities")
    .select("user_id")
    .where("provider", "=", "discord")
    .where("provider_user_id", "=", profile.id)
    .executeTakeFirst();
  if (owner && owner.user_id !== userId) throw new DomainError("discord_account_conflict", "This Discord account is already linked to another account.");
  if (owner) return;
  if (await getDiscordIdentity(db, userId)) throw new DomainError("discord_account_conflict", "Another Discord account is already linked. Unlink it first.");
  await db
    .insertInto("identities")
    .values({ user_id: userId, provider: "discord", provider_user_id: profile.id, username: profile.username, avatar: profile.avatar, email: profile.email })
    .execute();
  await db.updateTable("users").set({ avatar_url: discordAvatarUrl(profile) }).where("id", "=", userId).where("avatar_url", "is", null).execute();
}

/** Spec messages: "No user found", "No Discord account linked"; the last way to sign in stays. */
export async function unlinkDiscord(db: Db, userId: UserId): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) throw new DomainError("not_found", "No user found");
  const identity = await getDiscordIdentity(db, userId);
  if (!identity) throw new DomainError("discord_account_conflict", "No Discord account linked");
  if (!user.password_hash || !user.email) {
    throw new DomainError("discord_account_conflict", "Discord is the only way to sign in to this account, so it cannot be unlinked.");
  }
  await db.deleteFrom("identities").where("id", "=", identity.id).execute();
}
