import { Redis } from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";

export interface LimitRule {
  /** Requests allowed per window. */
  points: number;
  /** Window length in seconds. */
  duration: number;
}

export interface LimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (for Retry-After and RateLimit-Reset). */
  resetSeconds: number;
}

/**
 * Named limiters over one store: memory on a single instance, Redis (shared by every
 * instance) when REDIS_URL is set. A limiter is made on first use of its name and rule.
 */
export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  private redis?: Redis;

  constructor(private readonly redisUrl?: string) {}

  /** Connects on the first limit checked, so a process that never limits (the CLI) opens no connection. */
  private redisClient(): Redis | undefined {
    if (this.redisUrl && !this.redis) {
      this.redis = new Redis(this.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    }
    return this.redis;
  }

  private limiter(name: string, rule: LimitRule): RateLimiterAbstract {
    const id = `${name}:${rule.points}:${rule.duration}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const options = { keyPrefix: `stash:rl:${name}`, points: rule.points, duration: rule.duration };
      const redis = this.redisClient();
      limiter = redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: redis,
            // If Redis is down, limit in memory rather than fail every request.
            insuranceLimiter: new RateLimiterMemory(options),
          })
        : new RateLimiterMemory(options);
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  /** Spends `cost` points of `key`'s budget under `name`. */
  async consume(name: string, key: string, rule: LimitRule, cost = 1): Promise<LimitResult> {
    try {
      const res = await this.limiter(name, rule).consume(key, cost);
      return { allowed: true, limit: rule.points, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { allowed: false, limit: rule.points, remaining: 0, resetSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
    }
  }

  /** Gives back `points` spent under `name` (a reserved attempt that turned out to be valid). */
  async reward(name: string, key: string, rule: LimitRule, points = 1): Promise<void> {
    await this.limiter(name, rule).reward(key, points);
  }

  async close(): Promise<void> {
    if (!this.redis) return;
    // quit() waits for a connection that may never come (Redis down); disconnect() does not.
    if (this.redis.status === "ready") await this.redis.quit().catch(() => {});
    else this.redis.disconnect();
  }
}

/** Standard headers for a limited response (IETF RateLimit fields plus Retry-After when refused). */
export function rateLimitHeaders(result: LimitResult): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(result.limit),
    "RateLimit-Remaining": String(result.remaining),
    "RateLimit-Reset": String(result.resetSeconds),
  };
  if (!result.allowed) headers["Retry-After"] = String(result.resetSeconds);
  return headers;
}
