import { z } from "zod";
import { DEFAULT_API_KEY_PERMISSIONS } from "~/lib/api-key-status";
import { cleaned } from "~/lib/sanitize";
import type { Db } from "../../../db/index";
import { DomainError } from "~/services/platform/domain-error.server";
import { parseKeyScopes } from "~/services/api-keys/key-scopes.server";
import {
  assertKeyWithinMaker,
  createApiKey,
  deleteApiKey,
  findApiKeyForTeam,
  listApiKeys,
  regenerateApiKey,
  updateApiKey,
  type ApiKeySummary,
} from "~/services/api-keys/keys.server";
import { findServerForTeam, listServersForTeam } from "~/services/servers/servers.server";
import type { ApiKeyId, ServerId, TeamId } from "~/lib/ids";
import { parseId, parseServerId } from "~/services/platform/ids.server";
import type { CurrentTeam } from "~/lib/team-roles";

/**
 * The portal's key manager over JSON (`/api/keys`), shaped like the spec's api-key-manager:
 * `{success, data}`, with the full key as `api_key` only in create and regenerate answers.
 */

export const MISSING_KEY_FIELDS = "Missing information - Please provide a name and select a server.";

export type ManagedApiKey = ApiKeySummary & { servers: { name: string } | null };

const createSchema = z.object({
  name: cleaned(z.string({ error: MISSING_KEY_FIELDS }).min(1, MISSING_KEY_FIELDS).max(100, "Key name can be at most 100 characters")),
  server_id: z.string({ error: MISSING_KEY_FIELDS }).trim().min(1, MISSING_KEY_FIELDS),
  permissions: z.array(z.string()).optional(),
  expires_at: z.iso.datetime({ offset: true }).nullish(),
  categories: z.union([z.string(), z.array(z.string())]).nullish(),
  max_file_mb: z.union([z.number(), z.string()]).nullish(),
  allowed_ips: z.union([z.string(), z.array(z.string())]).nullish(),
});

const operationSchema = z.object({
  key_id: z.uuid("key_id must be a key id"),
  operation: z.enum(["regenerate", "delete"], { message: 'operation must be "regenerate" or "delete"' }),
});

const updateSchema = z.object({
  name: cleaned(z.string().min(1, "Key name is required").max(100, "Key name can be at most 100 characters")).optional(),
  permissions: z.array(z.string()).optional(),
  status: z.enum(["active", "revoked"]).optional(),
  expires_at: z.iso.datetime({ offset: true }).nullish(),
  categories: z.union([z.string(), z.array(z.string())]).nullish(),
  max_file_mb: z.union([z.number(), z.string()]).nullish(),
  allowed_ips: z.union([z.string(), z.array(z.string())]).nullish(),
});

function invalid(error: z.ZodError): DomainError {
  return new DomainError("invalid_request", error.issues[0]?.message ?? "Invalid request");
}

function keyNotFound(): DomainError {
  return new DomainError("not_found", "API key not found");
}

async function withServerNames(db: Db, teamId: TeamId, keys: ApiKeySummary[]): Promise<ManagedApiKey[]> {
  const names = new Map((await listServersForTeam(db, teamId)).map((s) => [s.id, s.name]));
  return keys.map((key) => ({ ...key, servers: names.has(key.server_id) ? { name: names.get(key.server_id)! } : null }));
}

export async function listManagedKeys(db: Db, teamId: TeamId, serverId?: ServerId): Promise<ManagedApiKey[]> {
  return withServerNames(db, teamId, await listApiKeys(db, teamId, serverId));
}

/** What a key manager call changed, for the audit trail. */
export interface KeyEvent {
  action: "key.create" | "key.regenerate" | "key.delete" | "key.update";
  keyId: ApiKeyId;
  keyName: string;
  serverId: ServerId;
}

export const keyEvent = (action: KeyEvent["action"], key: Pick<ApiKeySummary, "id" | "name" | "server_id">): KeyEvent => ({ action, keyId: key.id, keyName: key.name, serverId: key.server_id });

/**
 * POST /api/keys: either a new key `{name, server_id, permissions?, expires_at?, categories?,
 * max_file_mb?, allowed_ips?}` or `{key_id, operation}`.
 */
export async function runKeyManagerPost(
  db: Db,
  team: CurrentTeam,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown>; event: KeyEvent; secret?: string }> {
  const teamId = team.id;
  if (body && typeof body === "object" && "operation" in body) {
    const parsed = operationSchema.safeParse(body);
    if (!parsed.success) throw invalid(parsed.error);
    const { operation } = parsed.data;
    const keyId = parseId<ApiKeyId>(parsed.data.key_id);
    if (!keyId) throw keyNotFound();
    if (operation === "delete") {
      const existing = await findApiKeyForTeam(db, teamId, keyId);
      if (!existing || !(await deleteApiKey(db, teamId, keyId))) throw keyNotFound();
      return { status: 200, body: { data: { id: keyId } }, event: keyEvent("key.delete", existing) };
    }
    // A new secret is the key in the member's hands: it may carry only what they may do.
    const existing = await findApiKeyForTeam(db, teamId, keyId);
    if (!existing) throw keyNotFound();
    assertKeyWithinMaker(existing.permissions, team);
    const regenerated = await regenerateApiKey(db, teamId, keyId);
    if (!regenerated) throw keyNotFound();
    const [key] = await withServerNames(db, teamId, [regenerated.key]);
    return {
      status: 200,
      body: { data: { ...key, api_key: regenerated.secret }, api_key: regenerated.secret },
      event: keyEvent("key.regenerate", regenerated.key),
      secret: regenerated.secret,
    };
  }

  const parsed = createSchema.safeParse(body ?? {});
  if (!parsed.success) throw invalid(parsed.error);
  const input = parsed.data;
  const scopes = parseKeyScopes(input);
  const server = await findServerForTeam(db, teamId, parseServerId(input.server_id));
  if (!server) throw new DomainError("not_found", "Server not found");
  assertKeyWithinMaker(input.permissions ?? DEFAULT_API_KEY_PERMISSIONS, team);
  const created = await createApiKey(db, {
    scopes,
    serverId: server.id,
    teamId,
    name: input.name,
    permissions: input.permissions ?? DEFAULT_API_KEY_PERMISSIONS,
    expiresAt: input.expires_at ? new Date(input.expires_at) : null,
  });
  const data = { ...created.key, servers: { name: server.name }, api_key: created.secret };
  return { status: 201, body: { data, api_key: created.secret }, event: keyEvent("key.create", created.key), secret: created.secret };
}

/**
 * What a key manager request was about, for the audit entry of its refusal (a key beyond its
 * maker's permissions): the key it names, by name, or the one it would have made. Refusals come
 * after the key or server was found in the team, so the names are the team's own.
 */
export async function keyRequestOf(db: Db, teamId: TeamId, body: unknown, keyId?: ApiKeyId): Promise<Omit<KeyEvent, "keyId" | "serverId" | "keyName"> & { target: string; serverId: ServerId | null }> {
  const fields = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const named = keyId ?? parseId<ApiKeyId>(typeof fields.key_id === "string" ? fields.key_id : undefined);
  if (keyId || fields.operation !== undefined) {
    const key = named ? await findApiKeyForTeam(db, teamId, named) : undefined;
    return { action: keyId ? "key.update" : "key.regenerate", target: key?.name ?? String(named ?? "a key"), serverId: key?.server_id ?? null };
  }
  const server = await findServerForTeam(db, teamId, parseServerId(typeof fields.server_id === "string" ? fields.server_id : undefined));
  return { action: "key.create", target: typeof fields.name === "string" ? fields.name.trim() : "a new key", serverId: server?.id ?? null };
}

/** PUT /api/keys/{id}: rename, change permissions, revoke or reactivate, set or clear expiry and limits. */
export async function updateManagedKey(db: Db, team: CurrentTeam, keyId: ApiKeyId | undefined, body: unknown): Promise<ManagedApiKey> {
  const teamId = team.id;
  if (!keyId || !(await findApiKeyForTeam(db, teamId, keyId))) throw keyNotFound();
  const parsed = updateSchema.safeParse(body ?? {});
  if (!parsed.success) throw invalid(parsed.error);
  const input = parsed.data;
  if (input.permissions !== undefined) assertKeyWithinMaker(input.permissions, team);
  const updated = await updateApiKey(db, teamId, keyId, {
    scopes: parseKeyScopes(input),
    name: input.name,
    permissions: input.permissions,
    status: input.status,
    expiresAt: input.expires_at === undefined ? undefined : input.expires_at ? new Date(input.expires_at) : null,
  });
  if (!updated) throw keyNotFound();
  const [key] = await withServerNames(db, teamId, [updated]);
  return key;
}

export async function deleteManagedKey(db: Db, teamId: TeamId, keyId: ApiKeyId | undefined): Promise<KeyEvent> {
  if (!keyId) throw keyNotFound();
  const existing = await findApiKeyForTeam(db, teamId, keyId);
  if (!existing || !(await deleteApiKey(db, teamId, keyId))) throw keyNotFound();
  return keyEvent("key.delete", existing);
}
