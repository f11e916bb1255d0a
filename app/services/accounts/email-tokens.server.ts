import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { TokenPurpose } from "../../../db/schema";
import { randomString, sha256Hex } from "~/services/platform/ids.server";
import { DAY_MS, HOUR_MS } from "~/lib/durations";
import type { UserId } from "~/lib/ids";

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  email_confirm: DAY_MS,
  password_reset: HOUR_MS,
  email_change: DAY_MS,
};

export type TokenCheck =
  | { status: "valid"; userId: UserId }
  | { status: "expired" | "used"; userId: UserId }
  | { status: "invalid" };

/** A single-use link token; only its SHA-256 is stored. Earlier unused tokens of the same purpose stop working. */
export async function issueAuthToken(db: Db, userId: UserId, purpose: TokenPurpose, newEmail: string | null = null): Promise<string> {
  const token = randomString(43);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("auth_tokens").where("user_id", "=", userId).where("purpose", "=", purpose).where("used_at", "is", null).execute();
    await trx
      .insertInto("auth_tokens")
      .values({ user_id: userId, purpose, token_hash: sha256Hex(token), expires_at: new Date(Date.now() + TOKEN_TTL_MS[purpose]), new_email: newEmail })
      .execute();
  });
  return token;
}

function wellFormed(token: string): boolean {
  return /^[0-9A-Za-z]{20,100}$/.test(token);
}

/** What a token would do, without using it up (to decide which page to show). */
export async function checkAuthToken(db: Db, token: string, purpose: TokenPurpose): Promise<TokenCheck> {
  if (!wellFormed(token)) return { status: "invalid" };
  const row = await db
    .selectFrom("auth_tokens")
    .select(["user_id", "used_at", "expires_at"])
    .where("token_hash", "=", sha256Hex(token))
    .where("purpose", "=", purpose)
    .executeTakeFirst();
  if (!row) return { status: "invalid" };
  if (row.used_at) return { status: "used", userId: row.user_id };
  if (new Date(row.expires_at).getTime() <= Date.now()) return { status: "expired", userId: row.user_id };
  return { status: "valid", userId: row.user_id };
}

/** Uses a token up in one conditional UPDATE, so two clicks cannot both succeed. */
export async function consumeAuthToken(db: Db, token: string, purpose: TokenPurpose): Promise<TokenCheck & { newEmail?: string | null }> {
  if (!wellFormed(token)) return { status: "invalid" };
  const row = await db
    .updateTable("auth_tokens")
    .set({ used_at: sql`now()` })
    .where("token_hash", "=", sha256Hex(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .returning(["user_id", "new_email"])
    .executeTakeFirst();
  if (row) return { status: "valid", userId: row.user_id, newEmail: row.new_email };
  return checkAuthToken(db, token, purpose);
}
