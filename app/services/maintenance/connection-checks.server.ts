import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { ConnectionCheck, ConnectionCheckResult } from "~/lib/connection-checks";
import { PLANS } from "~/lib/plans";
import { createApiKey, deleteApiKey } from "~/services/api-keys/keys.server";
import { getAccountQuota } from "~/services/billing/quota.server";
import type { TeamId, UserId } from "~/lib/ids";

export const NO_SERVERS_FOR_KEY_TEST = "No servers found - cannot test API key creation";

interface CheckUser {
  id: UserId;
  email: string | null;
  displayName: string | null;
  role: string;
  /** The team the portal acts in, and whether this member may make keys there. */
  teamId: TeamId;
  canManageKeys: boolean;
}

/** Runs one server-side check for the signed-in member in their current team. */
export async function runConnectionCheck(db: Db, user: CheckUser, check: ConnectionCheck): Promise<ConnectionCheckResult> {
  switch (check) {
    case "Authentication":
      return { ok: true, message: "Signed in", details: { user_id: user.id, team_id: user.teamId, email: user.email } };
    case "Database Connection": {
      const started = performance.now();
      await sql`SELECT 1`.execute(db);
      return { ok: true, message: "Database reachable", details: { latency_ms: Math.round(performance.now() - started) } };
    }
    case "User Profile": {
      const row = await db.selectFrom("users").select(["display_name", "role", "created_at"]).where("id", "=", user.id).executeTakeFirst();
      if (!row) return { ok: false, message: "Profile not found", details: {} };
      return { ok: true, message: `${row.display_name ?? "User"} (${row.role})`, details: { display_name: row.display_name, role: row.role, created_at: row.created_at } };
    }
    case "Subscription Status": {
      const quota = await getAccountQuota(db, user.teamId);
      return {
        ok: true,
        message: `${PLANS[quota.tier].name} plan (${quota.tier})`,
        details: { subscription_tier: quota.tier, storage_quota_gb: quota.planGb + quota.addonGb, extra_storage_gb: quota.addonGb },
      };
    }
    case "Servers": {
      const servers = await db.selectFrom("servers").select(["id", "name", "status"]).where("team_id", "=", user.teamId).execute();
      return { ok: true, message: `${servers.length} server${servers.length === 1 ? "" : "s"}`, details: { count: servers.length, servers } };
    }
    case "API Key Creation Test": {
      const server = await db.selectFrom("servers").select(["id", "name"]).where("team_id", "=", user.teamId).orderBy("created_at", "desc").executeTakeFirst();
      if (!server) return { ok: false, message: NO_SERVERS_FOR_KEY_TEST, details: {} };
      if (!user.canManageKeys) return { ok: false, message: "Your role in this team cannot manage API keys", details: {} };
      const { key } = await createApiKey(db, { serverId: server.id, teamId: user.teamId, name: "Connection test (temporary)" });
      const deleted = await deleteApiKey(db, user.teamId, key.id);
      return {
        ok: deleted,
        message: deleted ? "Temporary key created and deleted" : "Temporary key created but could not be deleted",
        details: { server: server.name, key_prefix: key.key_prefix, permissions: key.permissions, deleted },
      };
    }
    case "Internal API Health":
      return { ok: false, message: "Runs in the browser", details: {} };
  }
}
