import type { ActionResult } from "~/lib/action-result";

/** The dashboard's connection checks, in the spec's order; Internal API Health runs in the browser against /api/health. */
export const CONNECTION_CHECKS = [
  "Authentication",
  "Database Connection",
  "Internal API Health",
  "User Profile",
  "Subscription Status",
  "Servers",
  "API Key Creation Test",
] as const;
export type ConnectionCheck = (typeof CONNECTION_CHECKS)[number];

/** One check's answer, an ActionResult whose message and details the dashboard lists. */
export interface ConnectionCheckResult extends ActionResult {
  message: string;
  details: Record<string, unknown>;
}
