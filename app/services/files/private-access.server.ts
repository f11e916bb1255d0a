import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "../../../db/index";
import { addressInScope } from "~/services/api-keys/key-scopes.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { authenticateApiRequest, extractApiKey } from "~/services/api-keys/key-auth.server";
import type { AppContext } from "~/services/app-context.server";
import type { FileId, ServerId } from "~/lib/ids";
import { storedFilesAudit } from "~/lib/audit-targets";

export interface KeyedRequest {
  headers: Headers;
  query: URLSearchParams;
  ip: string;
}

/** Bounds of a signed URL's life: long enough for an in-game UI, short enough to be a share link, not a key. */
export const SIGNED_URL_MIN_S = 60;
export const SIGNED_URL_MAX_S = 7 * 24 * 3600;
export const SIGNED_URL_DEFAULT_S = 3600;

/**
 * Whether the request carries a valid key (with read permission) of `serverId`. Records are answered
 * like missing files otherwise, so every failure here is simply "no": a 401 or 403 would tell a
 * stranger that the file exists. Failed keys still count against the caller's IP; a request with no
 * key at all guesses nothing, so it spends nothing — players and chat previews opening links to
 * private files would otherwise spend the budget of an address that also runs the game server. A
 * key that opens the file is a key-authenticated call, so it gets its audit row and api_calls count.
 */
export async function holdsReadKeyOf(ctx: AppContext, request: KeyedRequest, file: ReadFile): Promise<boolean> {
  if (!extractApiKey(request.headers, request.query)) return false;
  try {
    const caller = await authenticateApiRequest(ctx, { ...request, permission: "read" });
    if (caller.serverId !== file.server_id || !addressInScope(caller.scopes, request.ip)) return false;
    ctx.apiCalls.record(caller, { action: "file.read", ip: request.ip, status: 200, ...storedFilesAudit([file]) });
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

type FilePath = { server_id: ServerId; category: string; filename: string };
/** A file a key reads: its audit row names it. */
type ReadFile = { id: FileId; server_id: ServerId; original_filename: string };

const filePathOf = (file: FilePath) => `/f/${file.server_id}/${file.category}/${file.filename}`;

/**
 * The signature of a file URL valid until `expires` (Unix seconds): HMAC-SHA256 keyed by the
 * server's webhook secret over the path and the expiry, base64url. Rotating the secret revokes
 * every signed URL of the server at once.
 */
export function fileUrlSignature(secret: string, file: FilePath, expires: number): string {
  return createHmac("sha256", secret).update(`${filePathOf(file)}\n${expires}`).digest("base64url");
}

async function urlSigningSecret(db: Db, serverId: ServerId): Promise<string | undefined> {
  const row = await db.selectFrom("servers").select("webhook_secret").where("id", "=", serverId).executeTakeFirst();
  return row?.webhook_secret;
}

/** A link to a private file that works without a key until it expires. */
export async function createSignedFileUrl(db: Db, cdnBaseUrl: string, file: FilePath, expiresInS: number, now = Date.now()) {
  const secret = await urlSigningSecret(db, file.server_id);
  if (!secret) throw new DomainError("not_found", "File not found");
  const expires = Math.floor(now / 1000) + expiresInS;
  const signature = fileUrlSignature(secret, file, expires);
  return { url: `${cdnBaseUrl}${filePathOf(file)}?expires=${expires}&sig=${signature}`, expires_at: new Date(expires * 1000).toISOString(), expires_in: expiresInS };
}

/** True when `query` carries an unexpired `expires`/`sig` pair made for exactly this file. */
async function hasValidSignature(db: Db, file: FilePath, query: URLSearchParams): Promise<boolean> {
  const expires = Number(query.get("expires"));
  const sig = query.get("sig") ?? "";
  if (!Number.isInteger(expires) || expires * 1000 <= Date.now() || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return false;
  const secret = await urlSigningSecret(db, file.server_id);
  if (!secret) return false;
  return timingSafeEqual(Buffer.from(fileUrlSignature(secret, file, expires)), Buffer.from(sig));
}

/** A private file opens with a valid signed URL or a read key of its server; anything else sees "not found". */
export async function canReadPrivateFile(ctx: AppContext, request: KeyedRequest, file: FilePath & ReadFile): Promise<boolean> {
  if (request.query.has("sig")) return hasValidSignature(ctx.db, file, request.query);
  return holdsReadKeyOf(ctx, request, file);
}
