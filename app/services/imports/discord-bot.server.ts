import { setTimeout as sleep } from "node:timers/promises";
import type { AppContext } from "~/services/app-context.server";
import { DomainError } from "~/services/platform/domain-error.server";

/**
 * The owner's own Discord bot, lent to one import (docs/decisions/112): REST calls with the
 * `User-Agent: DiscordBot (url, version)` Discord requires, 429s waited out as `retry_after` says (a
 * global limit holds every call of this client), and an exhausted bucket (`X-RateLimit-Remaining: 0`)
 * waited for before its next call. The token lives in this object and the import's row only while
 * the job runs, and is never logged.
 */

/** Discord's application flags for the Message Content intent (full, or below 100 servers). */
const MESSAGE_CONTENT_FLAGS = (1 << 18) | (1 << 19);
/** Longest single wait a 429 may ask for before the import gives up for now. */
const MAX_RETRY_WAIT_S = 120;
const MAX_ATTEMPTS = 6;
/** At most this many links per refresh call (Discord's limit). */
export const REFRESH_BATCH = 50;

export interface DiscordAttachmentJson {
  id: string;
  filename: string;
  size?: number;
  url: string;
  proxy_url?: string;
  content_type?: string;
}

export interface DiscordMessageJson {
  id: string;
  channel_id: string;
  type?: number;
  content?: string;
  timestamp: string;
  author?: { id: string; username?: string; global_name?: string | null; bot?: boolean };
  attachments?: DiscordAttachmentJson[];
  embeds?: Record<string, unknown>[];
  components?: unknown[];
  webhook_id?: string;
}

export class RefreshUnavailableError extends Error {
  constructor(reason: string) {
    super(`Discord's refresh-urls endpoint did not answer as expected (${reason})`);
    this.name = "RefreshUnavailableError";
  }
}

export interface DiscordBot {
  /** Checks the token and the Message Content intent; throws discord_token_invalid / discord_intent_missing. */
  assertCanReadMessages(): Promise<void>;
  /** Fresh signed URLs for up to 50 links, by the link as sent; links Discord does not return are gone. */
  refreshUrls(urls: readonly string[]): Promise<Map<string, string>>;
  /** One page of a channel's messages, newest first, before `before`. */
  channelMessages(channelId: string, before?: string): Promise<DiscordMessageJson[]>;
  message(channelId: string, messageId: string): Promise<DiscordMessageJson | null>;
  /** Calls made, by endpoint kind (the bench reads how many refresh calls a run took). */
  readonly calls: { refresh: number; refreshedUrls: number; messages: number };
}

const tokenRefused = () =>
  new DomainError("discord_token_invalid", "Discord refused the bot token (401 Unauthorized): it is wrong or was reset. Copy the current token from the Bot page of your application in the Discord Developer Portal and start the import again.");

export const intentMissing = () =>
  new DomainError(
    "discord_intent_missing",
    "The bot does not have the Message Content intent, so Discord hides every message's attachments from it. Turn on \"Message Content Intent\" on the Bot page of your application in the Discord Developer Portal, then start the import again.",
  );

export function discordBot(ctx: AppContext, token: string, signal?: AbortSignal): DiscordBot {
  const base = `${ctx.config.DISCORD_API_BASE.replace(/\/+$/, "")}/v10`;
  const userAgent = `DiscordBot (${ctx.config.appUrl}, ${ctx.version})`;
  let globalUntil = 0;
  const buckets = new Map<string, number>();
  const calls = { refresh: 0, refreshedUrls: 0, messages: 0 };

  async function call(method: string, path: string, bucket: string, body?: unknown) {
    for (let attempt = 1; ; attempt++) {
      const waitUntil = Math.max(globalUntil, buckets.get(bucket) ?? 0);
      if (waitUntil > Date.now()) await sleep(waitUntil - Date.now(), undefined, { signal });
      const response = await ctx.outbound.fetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bot ${token}`, "User-Agent": userAgent, ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        allowHost: (url) => url.hostname === "discord.com",
        signal,
        timeoutMs: 30_000,
      });
      if (response.headers.get("x-ratelimit-remaining") === "0") {
        const resetAfter = Number(response.headers.get("x-ratelimit-reset-after"));
        if (Number.isFinite(resetAfter)) buckets.set(bucket, Date.now() + resetAfter * 1000);
      }
      if (response.status === 429) {
        const answer = (await response.json().catch(() => ({}))) as { retry_after?: number; global?: boolean };
        const retryAfter = Number(answer.retry_after ?? response.headers.get("retry-after") ?? 1);
        if (!Number.isFinite(retryAfter) || retryAfter > MAX_RETRY_WAIT_S || attempt >= MAX_ATTEMPTS) {
          throw new DomainError("rate_limited", `Discord is rate limiting the bot (retry after ${retryAfter} s); the import goes on later`);
        }
        const until = Date.now() + retryAfter * 1000;
        if (answer.global || response.headers.get("x-ratelimit-global") === "true") globalUntil = until;
        else buckets.set(bucket, until);
        continue;
      }
      if (response.status === 401) {
        await response.body?.cancel();
        throw tokenRefused();
      }
      return response;
    }
  }

  async function json<T>(response: Awaited<ReturnType<typeof call>>): Promise<T> {
    return (await response.json()) as T;
  }

  return {
    calls,
    async assertCanReadMessages() {
      const response = await call("GET", "/applications/@me", "application");
      if (!response.ok) throw new DomainError("discord_unavailable", `Discord did not describe the bot's application (HTTP ${response.status})`);
      const app = await json<{ flags?: number }>(response);
      if (((app.flags ?? 0) & MESSAGE_CONTENT_FLAGS) === 0) throw intentMissing();
    },
    async refreshUrls(urls) {
      if (urls.length === 0) return new Map();
      if (urls.length > REFRESH_BATCH) throw new Error(`at most ${REFRESH_BATCH} links per refresh`);
      calls.refresh++;
      calls.refreshedUrls += urls.length;
      const response = await call("POST", "/attachments/refresh-urls", "refresh", { attachment_urls: urls });
      if (!response.ok) {
        await response.body?.cancel();
        throw new RefreshUnavailableError(`HTTP ${response.status}`);
      }
      const answer = await json<{ refreshed_urls?: Array<{ original?: unknown; refreshed?: unknown }> }>(response).catch(() => null);
      if (!answer || !Array.isArray(answer.refreshed_urls)) throw new RefreshUnavailableError("no refreshed_urls in the answer");
      const refreshed = new Map<string, string>();
      for (const entry of answer.refreshed_urls) {
        if (typeof entry.original === "string" && typeof entry.refreshed === "string" && entry.refreshed) refreshed.set(entry.original, entry.refreshed);
      }
      return refreshed;
    },
    async channelMessages(channelId, before) {
      calls.messages++;
      const query = new URLSearchParams({ limit: "100", ...(before ? { before } : {}) });
      const response = await call("GET", `/channels/${channelId}/messages?${query}`, `channel:${channelId}`);
      if (response.status === 403 || response.status === 404) {
        const answer = (await response.json().catch(() => ({}))) as { message?: string };
        throw new DomainError(
          "permission_denied",
          response.status === 404
            ? `Discord does not know channel ${channelId} (${answer.message ?? "Unknown Channel"}); check the channel id`
            : `The bot cannot read channel ${channelId} (${answer.message ?? "Missing Access"}): give it View Channel and Read Message History there`,
          { channel_id: channelId },
        );
      }
      if (!response.ok) throw new DomainError("discord_unavailable", `Discord answered HTTP ${response.status} for channel ${channelId}`);
      return json<DiscordMessageJson[]>(response);
    },
    async message(channelId, messageId) {
      calls.messages++;
      const response = await call("GET", `/channels/${channelId}/messages/${messageId}`, `channel:${channelId}`);
      if (response.status === 404 || response.status === 403) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) throw new DomainError("discord_unavailable", `Discord answered HTTP ${response.status} for a message of channel ${channelId}`);
      return json<DiscordMessageJson>(response);
    },
  };
}
