import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { DomainError } from "~/services/platform/domain-error.server";
import { randomString, sha256Hex } from "~/services/platform/ids.server";
import { DEFAULT_CATEGORY, sanitiseCategory } from "~/services/uploads/upload-fields.server";
import { newStoredName } from "~/services/uploads/store-upload.server";
import type { ApiKeyId, ServerId } from "~/lib/ids";

export const PRESIGN_DEFAULT_SECONDS = 300;
export const PRESIGN_MAX_SECONDS = 3600;
const MB = 1024 * 1024;

/**
 * What a presigned URL is bound to, fixed by the server that asked for it. `category` and
 * `filename` are where the file will be, so the presign answer can name its public URL (grants made
 * before that have neither: their upload gets a generated name).
 */
export interface GrantConstraints {
  category?: string;
  filename?: string;
  player_name?: string;
  player_identifier?: string;
  max_bytes?: number;
}

export interface PresignInput {
  expiresIn?: unknown;
  category?: unknown;
  playerName?: unknown;
  playerIdentifier?: unknown;
  maxSizeMb?: unknown;
  /** The type the client will send (a MIME type or an extension), for the promised name's extension. */
  fileType?: unknown;
}

/** Extensions whose MIME subtype says something else; any other subtype is its own extension. */
const SUBTYPE_EXTENSIONS: Record<string, string> = {
  jpeg: "jpg",
  mpeg: "mp3",
  quicktime: "mov",
  "x-matroska": "mkv",
  "x-msvideo": "avi",
  plain: "txt",
  "x-wav": "wav",
  wave: "wav",
};

/**
 * The extension of the promised name: from "image/webp", "audio/webm;codecs=opus" or "webp". A
 * bare kind ("image", as LB Phone says) or anything else names no extension; the file's real type
 * is still taken from its bytes.
 */
export function extensionForType(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const type = value.trim().toLowerCase().split(";")[0]!.trim();
  const subtype = type.includes("/") ? type.split("/")[1]! : type.replace(/^\./, "");
  if (!type.includes("/") && !/^\.?[a-z0-9]{2,5}$/.test(type)) return undefined;
  if (["image", "video", "audio"].includes(subtype)) return undefined;
  const ext = SUBTYPE_EXTENSIONS[subtype] ?? subtype;
  return /^[a-z0-9]{1,8}$/.test(ext) ? ext : undefined;
}

function optionalText(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" && typeof value !== "number") throw new DomainError("invalid_request", `${field} must be a string`, { field });
  const text = String(value).trim();
  if (text.length > max) throw new DomainError("invalid_request", `${field} must be at most ${max} characters`, { field });
  return text || undefined;
}

function positiveNumber(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new DomainError("invalid_request", `${field} must be a positive number`, { field });
  return n;
}

/** Validates a presign request: expiry 1..3600 s (default 300), optional bindings; fixes where the file will be. */
export function parsePresignInput(input: PresignInput, serverMaxBytes: number): { expiresIn: number; constraints: GrantConstraints } {
  const expiresIn = positiveNumber(input.expiresIn, "expires_in") ?? PRESIGN_DEFAULT_SECONDS;
  if (!Number.isInteger(expiresIn) || expiresIn > PRESIGN_MAX_SECONDS) {
    throw new DomainError("invalid_request", `expires_in must be a whole number of seconds up to ${PRESIGN_MAX_SECONDS}`, { field: "expires_in" });
  }
  const category = optionalText(input.category, "category", 200);
  const maxSizeMb = positiveNumber(input.maxSizeMb, "max_size_mb");
  const constraints: GrantConstraints = {
    category: category === undefined ? DEFAULT_CATEGORY : sanitiseCategory(category),
    filename: newStoredName(extensionForType(input.fileType)),
    player_name: optionalText(input.playerName, "player_name", 100),
    player_identifier: optionalText(input.playerIdentifier, "player_identifier", 200),
    max_bytes: maxSizeMb === undefined ? undefined : Math.min(Math.floor(maxSizeMb * MB), serverMaxBytes),
  };
  return { expiresIn, constraints: JSON.parse(JSON.stringify(constraints)) };
}

export async function createUploadGrant(
  db: Db,
  input: { serverId: ServerId; apiKeyId: ApiKeyId | null; expiresIn: number; constraints: GrantConstraints; now?: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomString(43);
  const expiresAt = new Date((input.now ?? new Date()).getTime() + input.expiresIn * 1000);
  await db
    .insertInto("upload_grants")
    .values({
      token_hash: sha256Hex(token),
      server_id: input.serverId,
      api_key_id: input.apiKeyId,
      constraints: JSON.stringify(input.constraints),
      expires_at: expiresAt,
    })
    .execute();
  return { token, expiresAt };
}

/**
 * Takes a grant for one upload in one conditional UPDATE, so two requests racing with the same
 * URL cannot both have it. Undefined when unknown, used or expired.
 */
export async function claimUploadGrant(db: Db, token: string, now: Date = new Date()) {
  if (!/^[0-9A-Za-z]{20,100}$/.test(token)) return undefined;
  const grant = await db
    .updateTable("upload_grants")
    .set({ used_at: now })
    .where("token_hash", "=", sha256Hex(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning(["id", "server_id", "api_key_id", "constraints"])
    .executeTakeFirst();
  return grant ? { ...grant, constraints: grant.constraints as GrantConstraints } : undefined;
}

/** Gives a claimed grant back after an upload that stored nothing, so the client may retry. */
export async function releaseUploadGrant(db: Db, id: string): Promise<void> {
  await db.updateTable("upload_grants").set({ used_at: null }).where("id", "=", id).where(sql<boolean>`expires_at > now()`).execute();
}
