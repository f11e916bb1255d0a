import type { Db } from "../../../db/index";
import type { Role } from "../../../db/schema";
import { randomString, sha256Hex } from "~/services/platform/ids.server";
import { DAY_MS } from "~/lib/durations";
import type { TeamId, UserId } from "~/lib/ids";

export const SESSION_TTL_MS = 30 * DAY_MS;
// Extending on every request would write a row per page view; once a day keeps the
// 30-day window rolling at a fraction of the cost.
const EXTEND_AFTER_MS = DAY_MS;
const TOKEN_LENGTH = 43; // ≈256 bits of base62

export interface SessionCookieConfig {
  cookieSecure: boolean;
}

export interface SessionUser {
  id: UserId;
  email: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  role: Role;
  emailVerified: boolean;
  hasPassword: boolean;
  createdAt: Date;
  lastSignInAt: Date | null;
}

export interface ActiveSession {
  /** The stored id (the token's SHA-256), never the token itself. */
  id: string;
  expiresAt: Date;
  /** True when this read moved the expiry forward, so the cookie should be re-sent. */
  extended: boolean;
  user: SessionUser;
  /** The team this session switched to, if any (checked against membership when used). */
  chosenTeamId: TeamId | null;
}

export interface NewSession {
  token: string;
  id: string;
  expiresAt: Date;
}

export function sessionCookieName(config: SessionCookieConfig): string {
  return config.cookieSecure ? "__Host-stash_session" : "stash_session";
}

export async function createSession(
  db: Db,
  input: { userId: UserId; ip?: string | null; userAgent?: string | null },
): Promise<NewSession> {
  const token = randomString(TOKEN_LENGTH);
  const id = sha256Hex(token);
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await db
    .insertInto("sessions")
    .values({
      id,
      user_id: input.userId,
      expires_at: expiresAt,
      ip: input.ip?.slice(0, 64) ?? null,
      user_agent: input.userAgent?.slice(0, 300) ?? null,
    })
    .execute();
  await db.updateTable("users").set({ last_sign_in_at: new Date() }).where("id", "=", input.userId).execute();
  return { token, id, expiresAt };
}

/** The live session for a cookie token, extending its expiry when due; null when unknown or expired. */
export async function readSession(db: Db, token: string): Promise<ActiveSession | null> {
  if (!/^[0-9A-Za-z]{20,100}$/.test(token)) return null;
  const id = sha256Hex(token);
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([
      "sessions.id as session_id",
      "sessions.expires_at",
      "sessions.team_id",
      "users.id",
      "users.email",
      "users.display_name",
      "users.avatar_url",
      "users.role",
      "users.email_verified_at",
      "users.password_hash",
      "users.created_at",
      "users.last_sign_in_at",
    ])
    .where("sessions.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const now = Date.now();
  const expiresAt = new Date(row.expires_at);
  if (expiresAt.getTime() <= now) {
    await db.deleteFrom("sessions").where("id", "=", id).execute();
    return null;
  }
  let extended = false;
  let effectiveExpiry = expiresAt;
  if (expiresAt.getTime() - now < SESSION_TTL_MS - EXTEND_AFTER_MS) {
    effectiveExpiry = new Date(now + SESSION_TTL_MS);
    await db.updateTable("sessions").set({ expires_at: effectiveExpiry }).where("id", "=", id).execute();
    extended = true;
  }
  return {
    id,
    expiresAt: effectiveExpiry,
    extended,
    chosenTeamId: row.team_id,
    user: {
      id: row.id,
      email: row.email,
      displayName: row.display_name,
      avatarUrl: row.avatar_url,
      role: row.role,
      emailVerified: row.email_verified_at !== null,
      hasPassword: row.password_hash !== null,
      createdAt: new Date(row.created_at),
      lastSignInAt: row.last_sign_in_at ? new Date(row.last_sign_in_at) : null,
    },
  };
}

export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", sha256Hex(token)).execute();
}

/** Ends every session of a user, optionally keeping the one making the change. */
export async function revokeUserSessions(db: Db, userId: UserId, options: { exceptId?: string } = {}): Promise<number> {
  let query = db.deleteFrom("sessions").where("user_id", "=", userId);
  if (options.exceptId) query = query.where("id", "!=", options.exceptId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function serializeSessionCookie(config: SessionCookieConfig, token: string, expiresAt: Date): string {
  const maxAge = Math.max(0, Math.round((expiresAt.getTime() - Date.now()) / 1000));
  const parts = [`${sessionCookieName(config)}=${token}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAge}`];
  if (config.cookieSecure) parts.push("Secure");
  return parts.join("; ");
}

export function clearSessionCookie(config: SessionCookieConfig): string {
  const parts = [`${sessionCookieName(config)}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0"];
  if (config.cookieSecure) parts.push("Secure");
  return parts.join("; ");
}

export function readSessionToken(config: SessionCookieConfig, cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  const name = sessionCookieName(config);
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

export interface SessionListing {
  id: string;
  ip: string | null;
  userAgent: string | null;
  signedInAt: Date;
  /** When the session was last used, to within the extension step (the expiry rolls forward on use). */
  lastActiveAt: Date;
  current: boolean;
}

/** A user's live sessions, the most recently active first, marking the one asking. */
export async function listUserSessions(db: Db, userId: UserId, currentId: string): Promise<SessionListing[]> {
  const rows = await db
    .selectFrom("sessions")
    .select(["id", "ip", "user_agent", "created_at", "expires_at"])
    .where("user_id", "=", userId)
    .where("expires_at", ">", new Date())
    .orderBy("expires_at", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    ip: row.ip,
    userAgent: row.user_agent,
    signedInAt: new Date(row.created_at),
    lastActiveAt: new Date(new Date(row.expires_at).getTime() - SESSION_TTL_MS),
    current: row.id === currentId,
  }));
}

/** Ends one of the user's own sessions; false when it is not theirs or already gone. */
export async function revokeUserSession(db: Db, userId: UserId, sessionId: string): Promise<boolean> {
  const result = await db.deleteFrom("sessions").where("user_id", "=", userId).where("id", "=", sessionId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
