import type { Tier } from "~/lib/plans";

export interface ApiRateLimits {
  /** Files stored per minute, per server. */
  uploadsPerMinute: number;
  /** Key-authenticated calls per minute, per server. */
  requestsPerMinute: number;
}

/** Per-server script API limits by the owner's plan; generous enough for a busy city's phones and MDTs. */
export const API_RATE_LIMITS: Record<Tier, ApiRateLimits> = {
  free: { uploadsPerMinute: 30, requestsPerMinute: 120 },
  starter: { uploadsPerMinute: 60, requestsPerMinute: 300 },
  professional: { uploadsPerMinute: 120, requestsPerMinute: 600 },
  business: { uploadsPerMinute: 240, requestsPerMinute: 1200 },
};

/** Failed API key attempts allowed per client IP before it gets 429 (guessing keys is pointless anyway at 238 bits). */
export const FAILED_KEY_ATTEMPTS = { points: 20, duration: 600 };
