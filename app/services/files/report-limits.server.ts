import type { LimitRule, RateLimits } from "~/services/platform/rate-limits.server";
import { ERRORS } from "~/services/platform/domain-error.server";

/** Reports need no account, so each address may file a handful an hour (spam, or an attack on a rival's files). */
export const REPORT_LIMIT: LimitRule = { points: 10, duration: 3600 };

export async function consumeReportBudget(limits: RateLimits, ip: string | null): Promise<void> {
  const result = await limits.consume("file-report", ip ?? "unknown", REPORT_LIMIT);
  if (!result.allowed) throw ERRORS.rateLimited("Too many reports from this address. Try again later.", result);
}
