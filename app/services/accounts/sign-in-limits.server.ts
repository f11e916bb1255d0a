import type { LimitRule, LimitResult, RateLimits } from "~/services/platform/rate-limits.server";

/**
 * Budgets for the account forms. Per-IP limits slow a single source; per-account limits stop
 * a distributed guess at one password or a flood of mails to one inbox.
 */
export const AUTH_LIMITS = {
  signInIp: { points: 30, duration: 15 * 60 },
  signInAccountFailures: { points: 10, duration: 15 * 60 },
  signUpIp: { points: 10, duration: 60 * 60 },
  resetIp: { points: 10, duration: 60 * 60 },
  resetAccount: { points: 3, duration: 60 * 60 },
  resendIp: { points: 10, duration: 60 * 60 },
  resendAccount: { points: 3, duration: 60 * 60 },
} satisfies Record<string, LimitRule>;

export type AuthLimitName = keyof typeof AUTH_LIMITS;

export function consumeAuthLimit(limits: RateLimits, name: AuthLimitName, key: string): Promise<LimitResult> {
  return limits.consume(`auth-${name}`, key.toLowerCase(), AUTH_LIMITS[name]);
}

/** Gives back a point consumed before an attempt that succeeded (only failures should count). */
export function refundAuthLimit(limits: RateLimits, name: AuthLimitName, key: string): Promise<void> {
  return limits.reward(`auth-${name}`, key.toLowerCase(), AUTH_LIMITS[name]);
}

export function tooManyAttemptsMessage(result: LimitResult): string {
  const minutes = Math.max(1, Math.ceil(result.resetSeconds / 60));
  return `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
}
