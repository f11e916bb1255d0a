/** Account roles, shared by the database schema, the admin service and the admin screens. */
import type { UserId } from "~/lib/ids";

export const ROLES = ["user", "moderator", "admin"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** One account in the admin list (spec: admin users), as the service reads it and the card shows it. */
export interface AdminUserRow {
  id: UserId;
  email: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  role: Role;
  createdAt: string;
  serversCount: number;
  totalStorageUsed: number;
}
