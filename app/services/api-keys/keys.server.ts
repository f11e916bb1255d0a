import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { quotaBytesSql } from "~/services/billing/quota.server";
import type { KeyScopes } from "~/services/api-keys/key-scopes.server";
import type { ApiKey } from "../../../db/schema";
import { API_KEY_PERMISSION_LABELS, API_KEY_PERMISSIONS, DEFAULT_API_KEY_PERMISSIONS, KEY_PERMISSION_REQUIRES, type ApiKeyPermission } from "~/lib/api-key-status";
import { PERMISSION_LABELS, type CurrentTeam } from "~/lib/team-roles";
import { randomString, sha256Hex } from "~/services/platform/ids.server";
import { DomainError } from "~/services/platform/domain-error.server";
import type { ApiKeyId, ServerId, TeamId } from "~/lib/ids";

const SECRET_LENGTH = 40;
/** `sk_` and the first characters of the secret: enough to tell keys apart in a list, useless to an attacker. */
const DISPLAY_PREFIX_LENGTH = 11;
/** Accepts the keys we issue (40 chars) and leaves room to lengthen them later without a migration. */
const KEY_PATTERN = /^sk_[0-9A-Za-z]{32,64}$/;
const LAST_USED_RESOLUTION_MS = 60_000;

/** The key's public view: everything except the hash. */
export type ApiKeySummary = Omit<ApiKey, "key_hash">;

export interface CreatedApiKey {
  key: ApiKeySummary;
  /** The secret, shown once; only its hash is stored. */
  secret: string;
}

export function isWellFormedApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function hashApiKey(secret: string): string {
  return sha256Hex(secret);
}

function newSecret(): string {
  return `sk_${randomString(SECRET_LENGTH)}`;
}

/** Validates and de-duplicates permissions in a stable order; an empty list means the default. */
export function normalisePermissions(input: readonly string[] | undefined): ApiKeyPermission[] {
  if (!input || input.length === 0) return [...DEFAULT_API_KEY_PERMISSIONS];
  const wanted = new Set(input.map((p) => p.trim().toLowerCase()).filter(Boolean));
  for (const p of wanted) {
    if (!(API_KEY_PERMISSIONS as readonly string[]).includes(p)) throw new DomainError("invalid_request", `Unknown permission "${p}" (use ${API_KEY_PERMISSIONS.join(", ")})`);
  }
  return API_KEY_PERMISSIONS.filter((p) => wanted.has(p));
}

/**
 * A 403 naming the first key permission the member may not give (a key never does more than its
 * maker may): upload and read need "View media", delete "Delete media", logs:write "View logs".
 */
export function assertKeyWithinMaker(permissions: readonly string[], maker: Pick<CurrentTeam, "name" | "permissions">): void {
  const refused = normalisePermissions(permissions).find((permission) => !maker.permissions.includes(KEY_PERMISSION_REQUIRES[permission]));
  if (!refused) return;
  const needs = KEY_PERMISSION_REQUIRES[refused];
  throw new DomainError(
    "permission_denied",
    `You cannot give a key the "${API_KEY_PERMISSION_LABELS[refused]}" (${refused}) permission: it needs "${PERMISSION_LABELS[needs]}", which your role in ${maker.name} does not have. A key can only do what you may.`,
    { permission: refused, requires: needs },
  );
}

const summaryColumns = [
  "id",
  "server_id",
  "team_id",
  "name",
  "key_prefix",
  "permissions",
  "status",
  "expires_at",
  "last_used_at",
  "created_at",
  "allowed_categories",
  "max_file_bytes",
  "allowed_ips",
] as const;

export interface CreateApiKeyInput {
  serverId: ServerId;
  teamId: TeamId;
  name: string;
  permissions?: readonly string[];
  expiresAt?: Date | null;
  /** Limits beyond the permissions (key-scopes.server.ts); unlimited when absent. */
  scopes?: Partial<KeyScopes>;
}

export async function createApiKey(db: Db, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const secret = newSecret();
  const key = await db
    .insertInto("api_keys")
    .values({
      server_id: input.serverId,
      team_id: input.teamId,
      name: input.name.trim().slice(0, 100) || "API key",
      key_prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH),
      key_hash: hashApiKey(secret),
      permissions: normalisePermissions(input.permissions),
      expires_at: input.expiresAt ?? null,
      allowed_categories: input.scopes?.categories ?? null,
      max_file_bytes: input.scopes?.maxFileBytes ?? null,
      allowed_ips: input.scopes?.addresses ?? null,
    })
    .returning(summaryColumns)
    .executeTakeFirstOrThrow();
  return { key, secret };
}

/** The user's keys, newest first, optionally for one server. */
export function listApiKeys(db: Db, teamId: TeamId, serverId?: ServerId): Promise<ApiKeySummary[]> {
  let query = db.selectFrom("api_keys").select(summaryColumns).where("team_id", "=", teamId);
  if (serverId) query = query.where("server_id", "=", serverId);
  return query.orderBy("created_at", "desc").execute();
}

export function findApiKeyForTeam(db: Db, teamId: TeamId, id: ApiKeyId): Promise<ApiKeySummary | undefined> {
  return db.selectFrom("api_keys").select(summaryColumns).where("id", "=", id).where("team_id", "=", teamId).executeTakeFirst();
}

/** A new secret for the same key row: the old secret stops working with this UPDATE. */
export async function regenerateApiKey(db: Db, teamId: TeamId, id: ApiKeyId): Promise<CreatedApiKey | undefined> {
  const secret = newSecret();
  const key = await db
    .updateTable("api_keys")
    .set({ key_prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH), key_hash: hashApiKey(secret), status: "active", last_used_at: null })
    .where("id", "=", id)
    .where("team_id", "=", teamId)
    .returning(summaryColumns)
    .executeTakeFirst();
  return key ? { key, secret } : undefined;
}

export interface UpdateApiKeyInput {
  name?: string;
  permissions?: readonly string[];
  status?: "active" | "revoked";
  expiresAt?: Date | null;
  /** Each field given replaces that limit; null lifts it. */
  scopes?: Partial<KeyScopes>;
}

export async function updateApiKey(db: Db, teamId: TeamId, id: ApiKeyId, input: UpdateApiKeyInput): Promise<ApiKeySummary | undefined> {
  const changes: Record<string, unknown> = {};
  if (input.name !== undefined) changes.name = input.name.trim().slice(0, 100) || "API key";
  if (input.permissions !== undefined) changes.permissions = normalisePermissions(input.permissions);
  if (input.status !== undefined) changes.status = input.status;
  if (input.expiresAt !== undefined) changes.expires_at = input.expiresAt;
  if (input.scopes?.categories !== undefined) changes.allowed_categories = input.scopes.categories;
  if (input.scopes?.maxFileBytes !== undefined) changes.max_file_bytes = input.scopes.maxFileBytes;
  if (input.scopes?.addresses !== undefined) changes.allowed_ips = input.scopes.addresses;
  if (Object.keys(changes).length === 0) return findApiKeyForTeam(db, teamId, id);
  return db.updateTable("api_keys").set(changes).where("id", "=", id).where("team_id", "=", teamId).returning(summaryColumns).executeTakeFirst();
}

export function revokeApiKey(db: Db, teamId: TeamId, id: ApiKeyId): Promise<ApiKeySummary | undefined> {
  return updateApiKey(db, teamId, id, { status: "revoked" });
}

export async function deleteApiKey(db: Db, teamId: TeamId, id: ApiKeyId): Promise<boolean> {
  const result = await db.deleteFrom("api_keys").where("id", "=", id).where("team_id", "=", teamId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * The key row for a presented secret with its server's owner plan, upload settings and, for
 * `withQuota`, the owner's stored bytes and quota (one query answers everything an upload checks
 * before reading the body), or undefined. Callers check status and expiry.
 */
export function findApiKeyBySecret(db: Db, secret: string, options: { withQuota?: boolean; now?: Date } = {}) {
  return db
    .selectFrom("api_keys")
    .innerJoin("servers", "servers.id", "api_keys.server_id")
    .leftJoin("subscriptions", "subscriptions.team_id", "servers.team_id")
    .leftJoin("account_usage", "account_usage.team_id", "servers.team_id")
    .select([
      "api_keys.id",
      "api_keys.server_id",
      "api_keys.team_id",
      "api_keys.name",
      "api_keys.permissions",
      "api_keys.status",
      "api_keys.expires_at",
      "api_keys.last_used_at",
      "servers.status as server_status",
      "servers.team_id as owner_id",
      "servers.max_file_size_mb",
      "servers.allowed_file_types",
      "servers.default_public",
      "servers.strip_metadata",
      "servers.convert_to_webp",
      "api_keys.allowed_categories",
      "api_keys.max_file_bytes",
      "api_keys.allowed_ips",
      "subscriptions.tier",
      "account_usage.used_bytes",
    ])
    .select(options.withQuota ? quotaBytesSql(sql.ref<string>("servers.team_id"), options.now ?? new Date()).as("quota_bytes") : sql<number | null>`NULL::bigint`.as("quota_bytes"))
    .where("api_keys.key_hash", "=", hashApiKey(secret))
    .executeTakeFirst();
}

/** Writes last_used_at at most once a minute per key, so a busy key is not an UPDATE per request. */
export async function touchApiKey(db: Db, id: ApiKeyId, lastUsedAt: Date | null, now: Date = new Date()): Promise<void> {
  if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  await db
    .updateTable("api_keys")
    .set({ last_used_at: now })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", sql<Date>`${new Date(now.getTime() - LAST_USED_RESOLUTION_MS)}::timestamptz`)]))
    .execute();
}
