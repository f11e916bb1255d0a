import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { hashPassword, verifyPassword } from "~/services/accounts/passwords.server";
import { findFileById, type ServedFileRecord } from "~/services/files/lookup.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { randomString, sha256Hex } from "~/services/platform/ids.server";
import { HOUR_MS } from "~/lib/durations";
import type { FileId, TeamId } from "~/lib/ids";

export const SHARE_EXPIRY_HOURS = [1, 24, 24 * 7, 24 * 30] as const;
export const SHARE_MAX_VIEWS_LIMIT = 100_000;

export interface ShareOptions {
  /** Hours until the link stops working; null for never. */
  expiresInHours: number | null;
  password: string | null;
  maxViews: number | null;
}

export interface ShareListing {
  token: string;
  expiresAt: Date | null;
  hasPassword: boolean;
  maxViews: number | null;
  views: number;
  createdAt: Date;
}

/** Reads the share form: expiry from the offered choices, an optional password (8+), an optional view limit. */
export function parseShareOptions(form: { expiresInHours?: unknown; password?: unknown; maxViews?: unknown }): ShareOptions {
  const expiry = String(form.expiresInHours ?? "never");
  const hours = expiry === "never" ? null : Number(expiry);
  if (hours !== null && !(SHARE_EXPIRY_HOURS as readonly number[]).includes(hours)) throw new DomainError("invalid_request", "Choose when the link expires");
  const password = typeof form.password === "string" && form.password !== "" ? form.password : null;
  if (password !== null && (password.length < 8 || password.length > 128)) throw new DomainError("invalid_request", "A share password needs 8 to 128 characters");
  const rawViews = typeof form.maxViews === "string" ? form.maxViews.trim() : "";
  const maxViews = rawViews === "" ? null : Number(rawViews);
  if (maxViews !== null && (!Number.isInteger(maxViews) || maxViews < 1 || maxViews > SHARE_MAX_VIEWS_LIMIT)) {
    throw new DomainError("invalid_request", `View limit must be a whole number from 1 to ${SHARE_MAX_VIEWS_LIMIT}`);
  }
  return { expiresInHours: hours, password, maxViews };
}

/** A share link of one of the owner's files (public or private); returns its token. */
export async function createShare(db: Db, teamId: TeamId, fileId: FileId, options: ShareOptions, now = new Date()): Promise<string> {
  const file = await findFileById(db, fileId);
  if (!file || file.team_id !== teamId) throw new DomainError("not_found", "File not found");
  const token = randomString(22);
  await db
    .insertInto("file_shares")
    .values({
      token,
      file_id: file.id,
      team_id: teamId,
      expires_at: options.expiresInHours === null ? null : new Date(now.getTime() + options.expiresInHours * HOUR_MS),
      password_hash: options.password === null ? null : await hashPassword(options.password),
      max_views: options.maxViews,
    })
    .execute();
  return token;
}

export async function listShares(db: Db, teamId: TeamId, fileId: FileId): Promise<ShareListing[]> {
  const rows = await db.selectFrom("file_shares").selectAll().where("file_id", "=", fileId).where("team_id", "=", teamId).orderBy("created_at", "desc").execute();
  return rows.map((r) => ({ token: r.token, expiresAt: r.expires_at, hasPassword: r.password_hash !== null, maxViews: r.max_views, views: r.views, createdAt: r.created_at }));
}

export async function revokeShare(db: Db, teamId: TeamId, token: string): Promise<boolean> {
  const row = await db.deleteFrom("file_shares").where("token", "=", token).where("team_id", "=", teamId).returning("token").executeTakeFirst();
  return Boolean(row);
}

export type ShareState =
  | { state: "missing" }
  | { state: "expired" }
  | { state: "used_up" }
  | { state: "locked"; wrongPassword: boolean }
  | { state: "open"; file: ServedFileRecord; unlock: string | null; viewsLeft: number | null };

/** What a browser that proved the password keeps: derived from the token and the stored hash, so it dies with a new password. */
function unlockValue(token: string, passwordHash: string): string {
  return sha256Hex(`${token}:${passwordHash}`);
}

/**
 * Opens a share for a page view: expired, used up, locked (password) or open. An open page view
 * spends one view, atomically, so a limit of 3 lets exactly three views through however many race.
 */
export async function openShare(db: Db, token: string, proof: { password?: string; unlock?: string }, options: { countView: boolean }, now = new Date()): Promise<ShareState> {
  if (!/^[0-9A-Za-z]{10,64}$/.test(token)) return { state: "missing" };
  const share = await db.selectFrom("file_shares").selectAll().where("token", "=", token).executeTakeFirst();
  const file = share ? await findFileById(db, share.file_id) : undefined;
  if (!share || !file || file.hidden_at) return { state: "missing" };
  if (share.expires_at && new Date(share.expires_at) <= now) return { state: "expired" };
  let unlock: string | null = null;
  if (share.password_hash) {
    unlock = unlockValue(token, share.password_hash);
    const proven = proof.unlock === unlock || (proof.password !== undefined && (await verifyPassword(share.password_hash, proof.password)));
    if (!proven) return { state: "locked", wrongPassword: proof.password !== undefined };
  }
  if (!options.countView) {
    if (share.max_views !== null && share.views > share.max_views) return { state: "used_up" };
    return { state: "open", file, unlock, viewsLeft: share.max_views === null ? null : Math.max(share.max_views - share.views, 0) };
  }
  const counted = await db
    .updateTable("file_shares")
    .set({ views: sql`views + 1` })
    .where("token", "=", token)
    .where((eb) => eb.or([eb("max_views", "is", null), eb("views", "<", eb.ref("max_views"))]))
    .returning(["views", "max_views"])
    .executeTakeFirst();
  if (!counted) return { state: "used_up" };
  return { state: "open", file, unlock, viewsLeft: counted.max_views === null ? null : counted.max_views - counted.views };
}
