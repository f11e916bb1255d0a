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
