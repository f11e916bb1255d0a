import type { Db } from "../../../db/index";
import { sha256Hex } from "~/services/platform/ids.server";
import { hashApiKey } from "~/services/api-keys/keys.server";

/** How stale the index may be before a miss reloads it: a key made on another instance works within this. */
const MAX_AGE_MS = 60_000;

/** The index's name for a webhook URL's credential (server id and secret). */
export function webhookCredentialHash(serverId: string, secret: string): string {
  return sha256Hex(`webhook:${serverId}:${secret}`);
}

/**
 * The hashes of every active API key and webhook secret, in memory. It lets an address that has
 * spent its failed-key budget still use a valid key — its other resources keep working while one
 * misconfigured resource is refused — without letting that address's guesses reach the database:
 * a presented key not in the index is refused from memory, and the index reloads at most once a
 * minute (one query, however many guesses arrive).
 */
export class KnownCredentials {
  private hashes = new Set<string>();
  private loadedAt = 0;
  private loading: Promise<void> | null = null;

  constructor(private readonly db: Db) {}

  async has(hash: string): Promise<boolean> {
    if (this.hashes.has(hash)) return true;
    if (Date.now() - this.loadedAt < MAX_AGE_MS) return false;
    await this.reload();
    return this.hashes.has(hash);
  }

  /** Adds a credential that just proved valid, so this instance knows it before the next reload. */
  remember(hash: string): void {
    this.hashes.add(hash);
  }

  /**
   * Adds a key just made or regenerated here: its first call must not wait for the next reload
   * when its address has spent the failed-key budget (another instance learns it within a minute).
   */
  rememberApiKey(secret: string): void {
    this.hashes.add(hashApiKey(secret));
  }

  /** Adds a server's new webhook secret (a new server or a rotated URL), like `rememberApiKey`. */
  rememberWebhook(serverId: string, secret: string): void {
    this.hashes.add(webhookCredentialHash(serverId, secret));
  }

  private reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const [keys, servers] = await Promise.all([
          this.db.selectFrom("api_keys").select("key_hash").where("status", "=", "active").execute(),
          this.db.selectFrom("servers").select(["id", "webhook_secret"]).execute(),
        ]);
        this.hashes = new Set([...keys.map((k) => k.key_hash), ...servers.map((s) => webhookCredentialHash(s.id, s.webhook_secret))]);
        this.loadedAt = Date.now();
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }
}
