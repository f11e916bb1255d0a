import type { TeamId } from "~/lib/ids";

/** Team roles and permissions, shared by the schema, the team services and the team screens. */
export const TEAM_ROLES = ["owner", "admin", "developer", "member"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
/** Roles an invitation or a role change may give; a team has one owner, made by transfer. */
export const ASSIGNABLE_ROLES = ["admin", "developer", "member"] as const satisfies readonly TeamRole[];
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export const TEAM_PERMISSIONS = [
  "view_media",
  "delete_media",
  "manage_servers",
  "manage_keys",
  "view_logs",
  "manage_billing",
  "manage_members",
] as const;
export type TeamPermission = (typeof TEAM_PERMISSIONS)[number];

export const PERMISSION_LABELS: Record<TeamPermission, string> = {
  view_media: "View media",
  delete_media: "Delete media",
  manage_servers: "Manage servers",
  manage_keys: "Manage API keys",
  view_logs: "View logs",
  manage_billing: "Manage billing",
  manage_members: "Manage members",
};

export const ROLE_LABELS: Record<TeamRole, string> = {
  owner: "Owner",
  admin: "Admin",
  developer: "Developer",
  member: "Member",
};

/** What each role holds until an admin tailors a member's permissions. */
export const ROLE_PERMISSIONS: Record<TeamRole, readonly TeamPermission[]> = {
  owner: TEAM_PERMISSIONS,
  admin: TEAM_PERMISSIONS,
  developer: ["view_media", "manage_servers", "manage_keys", "view_logs"],
  member: ["view_media", "view_logs"],
};

export function isAssignableRole(value: unknown): value is AssignableRole {
  return typeof value === "string" && (ASSIGNABLE_ROLES as readonly string[]).includes(value);
}

export function isTeamPermission(value: unknown): value is TeamPermission {
  return typeof value === "string" && (TEAM_PERMISSIONS as readonly string[]).includes(value);
}

/** The team the portal acts in, with what the signed-in member may do there. */
export interface CurrentTeam {
  id: TeamId;
  name: string;
  role: TeamRole;
  permissions: TeamPermission[];
}
