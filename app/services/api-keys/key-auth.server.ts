import { API_RATE_LIMITS, FAILED_KEY_ATTEMPTS } from "~/lib/api-limits";
import { DomainError, ERRORS } from "~/services/platform/domain-error.server";
import { isTier, type Tier } from "~/lib/plans";
import type { AppContext } from "~/services/app-context.server";
import { API_KEY_PERMISSIONS, type ApiKeyPermission } from "~/lib/api-key-status";
import { findApiKeyBySecret, hashApiKey, isWellFormedApiKey } from "~/services/api-keys/keys.server";
import { rateLimitHeaders, type LimitResult } from "~/services/platform/rate-limits.server";
import type { KeyScopes } from "~/services/api-keys/key-scopes.server";
import { uploadSettingsOf, type ServerUploadSettings } from "~/services/servers/server-settings.server";
import type { ApiKeyId, ServerId, TeamId } from "~/lib/ids";

/** Who is calling the script API: one key of one server. */
export interface ApiCaller {
  keyId: ApiKeyId;
  serverId: ServerId;
  /** The server owner, whose quota uploads use. */
  teamId: TeamId;
  permissions: ApiKeyPermission[];
  tier: Tier;
  serverStatus: string;
  lastUsedAt: Date | null;
  /** The server's upload settings, read with the key so an upload needs no second lookup. */
  server: ServerUploadSettings;
  /** Categories, file size and client addresses the key is limited to. */
  scopes: KeyScopes;
  /** The owner's stored bytes and quota, read with the key for calls that need upload permission. */
  quota: { usedBytes: number; quotaBytes: number } | null;
  /** RateLimit-* headers of the per-server request budget, for the success answer. */
  rateHeaders: Record<string, string>;
}

/** A scheme name alone ("Bearer " with an empty key, trimmed) is no key: the search goes on. */
const AUTH_SCHEMES = /^(bearer|key|token|apikey)(\s+|$)/i;

/** Query parameters a key may come in, in order: LB Phone's URL template uses `?api=`, others `?key=`/`?token=`. */
export const API_KEY_QUERY_PARAMS = ["apiKey", "api_key", "apikey", "api", "key", "token"] as const;

/**
 * The key from wherever clients put it: `x-api-key`, `Authorization: Bearer|Key <key>`, the bare
 * key or Basic credentials whose password is the key, `?apiKey=` / `?api_key=` / `?api=` / `?key=` / `?token=`. Values are trimmed; the first
 * place that has one wins.
 */
export function extractApiKey(headers: Headers, query: URLSearchParams): string | null {
  const header = headers.get("x-api-key")?.trim();
  if (header) return header;
  const authorization = headers.get("authorization")?.trim();
  // Loki clients (ox_lib, Promtail) send Basic credentials: the password is the key (a bare user works too).
  const basic = authorization && /^basic\s+(\S+)$/i.exec(authorization);
  if (basic) {
    const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const secret = (colon === -1 ? decoded : decoded.slice(colon + 1) || decoded.slice(0, colon)).trim();
    if (secret) return secret;
  } else if (authorization) {
    const value = authorization.replace(AUTH_SCHEMES, "").trim();
    if (value) return value;
  }
  for (const name of API_KEY_QUERY_PARAMS) {
    const value = query.get(name)?.trim();
    if (value) return value;
  }
  return null;
}

export interface AuthenticateOptions {
  headers: Headers;
  query: URLSearchParams;
  ip: string;
  permission?: ApiKeyPermission;
  /** A server id the client sent (query, header or body); it must be the key's server. */
  serverId?: string | null;
}

function rateLimited(result: LimitResult, message: string): DomainError {
  return ERRORS.rateLimited(message, result);
}

/**
 * Spends one of the address's failed-key points before a presented credential is checked, so a
 * burst of parallel guesses cannot all get past the check (consume, then test). A credential that
 * proves valid gets its point back (`acceptCredential`); a spent budget refuses only credentials
 * the in-memory index does not know, without asking the database.
 */
export async function reserveCredentialAttempt(ctx: AppContext, ip: string, credentialHash: string | null): Promise<void> {
  const attempt = await ctx.rateLimits.consume("api-key-failures", ip, FAILED_KEY_ATTEMPTS);
  if (attempt.allowed) return;
  if (credentialHash && (await ctx.knownCredentials.has(credentialHash))) return;
  throw rateLimited(attempt, "Too many failed API key attempts, try again later");
}

export async function acceptCredential(ctx: AppContext, ip: string, credentialHash: string): Promise<void> {
  ctx.knownCredentials.remember(credentialHash);
  await ctx.rateLimits.reward("api-key-failures", ip, FAILED_KEY_ATTEMPTS);
}

/** A valid key's call: who calls, and why the call is refused when the key may not make it. */
export interface KeyedCall {
  caller: ApiCaller;
  /** 403 for another server's id or a permission the key lacks; null when the key may make the call. */
  refusal: DomainError | null;
}

/**
 * Resolves the caller of a script API request or throws the DomainError to answer with: 401 for a
 * missing, malformed, unknown, revoked or expired key (each counted against the IP), 429 over a
 * budget. A valid key that may not make this call (another server's id, a permission it lacks) is
 * still its caller: the refusal comes back beside it, so the call lands on its team's audit trail,
 * and it spends the server's request budget like any call. A valid key is never refused because
 * other keys from its address failed.
 */
export async function authenticateKeyedCall(ctx: AppContext, options: AuthenticateOptions): Promise<KeyedCall> {
  const { ip } = options;
  const secret = extractApiKey(options.headers, options.query);
  // Malformed keys never reach the database, and count like any other failure.
  const hash = secret && isWellFormedApiKey(secret) ? hashApiKey(secret) : null;
  await reserveCredentialAttempt(ctx, ip, hash);
  if (!secret) throw new DomainError("missing_api_key", "API key required");
  if (!hash) throw new DomainError("invalid_api_key", "Invalid API key");

  const row = await findApiKeyBySecret(ctx.db, secret, { withQuota: options.permission === "upload" });
  if (!row || row.status !== "active") throw new DomainError("invalid_api_key", "Invalid API key");
  if (row.expires_at && row.expires_at.getTime() <= Date.now()) throw new DomainError("api_key_expired", "API key expired");
  await acceptCredential(ctx, ip, hash);

  const tier = isTier(row.tier) ? row.tier : "free";
  const budget = await ctx.rateLimits.consume("api-requests", row.server_id, {
    points: API_RATE_LIMITS[tier].requestsPerMinute,
    duration: 60,
  });
  if (!budget.allowed) throw rateLimited(budget, "Rate limit exceeded, try again later");

  const permissions = row.permissions.filter((p): p is ApiKeyPermission => (API_KEY_PERMISSIONS as readonly string[]).includes(p));
  const claimed = options.serverId?.trim();
  const refusal =
    claimed && claimed !== row.server_id
      ? new DomainError("server_mismatch", "This API key does not belong to that server")
      : options.permission && !permissions.includes(options.permission)
        ? new DomainError("permission_denied", `This API key does not have ${options.permission} permission`)
        : null;
  const caller: ApiCaller = {
    keyId: row.id,
    serverId: row.server_id,
    teamId: row.owner_id,
    permissions,
    tier,
    serverStatus: row.server_status,
    lastUsedAt: row.last_used_at,
    server: uploadSettingsOf(row),
    scopes: { categories: row.allowed_categories, maxFileBytes: row.max_file_bytes === null ? null : Number(row.max_file_bytes), addresses: row.allowed_ips },
    quota: row.quota_bytes === null ? null : { usedBytes: Number(row.used_bytes ?? 0), quotaBytes: Number(row.quota_bytes) },
    rateHeaders: rateLimitHeaders(budget),
  };
  return { caller, refusal };
}

/** The caller of a script API request that only a key allowed to make it passes (see authenticateKeyedCall). */
export async function authenticateApiRequest(ctx: AppContext, options: AuthenticateOptions): Promise<ApiCaller> {
  const { caller, refusal } = await authenticateKeyedCall(ctx, options);
  if (refusal) throw refusal;
  return caller;
}

/** Spends `count` of the server's uploads-per-minute budget; throws 429 when it is spent. */
export async function consumeUploadBudget(ctx: AppContext, serverId: ServerId, tier: Tier, count = 1): Promise<void> {
  const result = await ctx.rateLimits.consume("api-uploads", serverId, { points: API_RATE_LIMITS[tier].uploadsPerMinute, duration: 60 }, count);
  if (!result.allowed) throw rateLimited(result, "Upload rate limit exceeded, try again later");
}

export function requireActiveServer(status: string): void {
  if (status !== "active") throw new DomainError("server_inactive", "This server is not active and cannot accept uploads");
}
