/** Spec: Expired (expires_at in the past) takes precedence; any unknown status shows as raw text. */
export function apiKeyStatusLabel(status: string, expiresAt: Date | string | null, now: Date = new Date()): string {
  if (expiresAt && new Date(expiresAt).getTime() < now.getTime()) return "Expired";
  if (status === "active") return "Active";
  if (status === "revoked") return "Revoked";
  return status;
}

export const API_KEY_MESSAGES = {
  missing: { title: "Missing information", description: "Please provide a name and select a server." },
  noServers: "You need to create a server first before you can generate API keys.",
  notAuthenticated: "Not authenticated",
} as const;
