import type { TeamPermission } from "~/lib/team-roles";

/** What a key may do; a new key gets upload and read unless its owner chooses otherwise. */
export const API_KEY_PERMISSIONS = ["upload", "read", "delete", "logs:write"] as const;
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];
export const DEFAULT_API_KEY_PERMISSIONS: ApiKeyPermission[] = ["upload", "read"];

/**
 * The team permission a member needs to give a key each permission: a key never does more than the
 * member who makes or regenerates it may do in the portal (docs/decisions/098).
 */
export const KEY_PERMISSION_REQUIRES: Record<ApiKeyPermission, TeamPermission> = {
  upload: "view_media",
  read: "view_media",
  delete: "delete_media",
  "logs:write": "view_logs",
};

/** The key permissions a member holding `held` may give. */
export function grantableKeyPermissions(held: readonly TeamPermission[]): ApiKeyPermission[] {
  return API_KEY_PERMISSIONS.filter((permission) => held.includes(KEY_PERMISSION_REQUIRES[permission]));
}

export const API_KEY_PERMISSION_LABELS: Record<ApiKeyPermission, string> = {
  upload: "Upload",
  read: "Read",
  delete: "Delete",
  "logs:write": "Write logs",
};

/** The expiries the portal offers at creation, in days ("never" keeps the key until it is revoked). */
export const API_KEY_EXPIRY_OPTIONS = [
  { value: "never", label: "Never" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In 1 year" },
] as const;

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
  noPermissions: "Choose at least one permission.",
  badExpiry: "Choose when the key expires.",
  notAuthenticated: "Not authenticated",
} as const;
