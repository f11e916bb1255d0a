import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { Server } from "../../../db/schema";
import { GB } from "~/lib/plans";
import { FALLBACK_SERVER_GB, quotaExceededMessage, type ServerFormValues } from "~/lib/server-form";
import { getAccountQuota } from "~/services/billing/quota.server";
import { createServer, newWebhookSecret } from "~/services/servers/servers.server";
import { DomainError } from "~/services/platform/domain-error.server";
import type { ServerId, TeamId } from "~/lib/ids";

/** What an upload to a server needs of its settings. */
export interface ServerUploadSettings {
  maxFileSizeMb: number;
  allowedFileTypes: string[];
  defaultPublic: boolean;
  stripMetadata: boolean;
  convertToWebp: boolean;
}

/** The upload settings of a server row (or of a query that selected these columns). */
export function uploadSettingsOf(row: Pick<Server, "max_file_size_mb" | "allowed_file_types" | "default_public" | "strip_metadata" | "convert_to_webp">): ServerUploadSettings {
  return {
    maxFileSizeMb: row.max_file_size_mb,
    allowedFileTypes: row.allowed_file_types,
    defaultPublic: row.default_public,
    stripMetadata: row.strip_metadata,
    convertToWebp: row.convert_to_webp,
  };
}

/**
 * Spec rule: current usage plus the new server's max file size must fit the plan's quota, so
 * an account already at its limit cannot add servers it could not upload to.
 */
export async function createServerWithinQuota(db: Db, teamId: TeamId, values: ServerFormValues): Promise<Server> {
  const quota = await getAccountQuota(db, teamId);
  const usedGb = quota.usedBytes / GB;
  const quotaGb = quota.quotaBytes / GB;
  const newGb = values.maxFileSizeMb ? values.maxFileSizeMb / 1024 : FALLBACK_SERVER_GB;
  if (usedGb + newGb > quotaGb) throw new DomainError("server_quota_exceeded", quotaExceededMessage(quotaGb, usedGb));
  return createServer(db, {
    teamId,
    name: values.name,
    description: values.description,
    endpointUrl: values.endpointUrl,
    maxFileSizeMb: values.maxFileSizeMb,
    allowedFileTypes: values.allowedFileTypes,
  });
}

export function updateServerSettings(db: Db, teamId: TeamId, serverId: ServerId, values: ServerFormValues): Promise<Server | undefined> {
  return db
    .updateTable("servers")
    .set({
      name: values.name,
      description: values.description,
      endpoint_url: values.endpointUrl,
      max_file_size_mb: values.maxFileSizeMb,
      allowed_file_types: values.allowedFileTypes,
      updated_at: new Date(),
    })
    .where("id", "=", serverId)
    .where("team_id", "=", teamId)
    .returningAll()
    .executeTakeFirst();
}

export async function setDefaultVisibility(db: Db, teamId: TeamId, serverId: ServerId, isPublic: boolean): Promise<boolean> {
  const result = await db
    .updateTable("servers")
    .set({ default_public: isPublic, updated_at: new Date() })
    .where("id", "=", serverId)
    .where("team_id", "=", teamId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A new secret: the old webhook URL stops working with this UPDATE. */
export async function rotateWebhookSecret(db: Db, teamId: TeamId, serverId: ServerId): Promise<string | undefined> {
  const row = await db
    .updateTable("servers")
    .set({ webhook_secret: newWebhookSecret(), updated_at: new Date() })
    .where("id", "=", serverId)
    .where("team_id", "=", teamId)
    .returning("webhook_secret")
    .executeTakeFirst();
  return row?.webhook_secret;
}

export function webhookUrl(appUrl: string, server: Pick<Server, "id" | "webhook_secret">): string {
  return `${appUrl}/api/webhooks/${server.id}/${server.webhook_secret}`;
}

export interface ServerUsage {
  fileCount: number;
  usedBytes: number;
}

/** Usage counted from the files themselves, so it is right whatever path stored them. */
export async function getServerUsage(db: Db, serverId: ServerId): Promise<ServerUsage> {
  const row = await db
    .selectFrom("files")
    .select([sql<number>`count(*)::int`.as("count"), sql<string>`coalesce(sum(size_bytes), 0)`.as("bytes")])
    .where("server_id", "=", serverId)
    .executeTakeFirst();
  return { fileCount: Number(row?.count ?? 0), usedBytes: Number(row?.bytes ?? 0) };
}

export type ServerWithUsage = Server & ServerUsage;

/** The user's servers, newest first, each with what its files take up. */
export async function listServersWithUsage(db: Db, teamId: TeamId): Promise<ServerWithUsage[]> {
  const [servers, usage] = await Promise.all([
    db.selectFrom("servers").selectAll().where("team_id", "=", teamId).orderBy("created_at", "desc").execute(),
    db
      .selectFrom("files")
      .select(["server_id", sql<number>`count(*)::int`.as("count"), sql<string>`sum(size_bytes)`.as("bytes")])
      .where("team_id", "=", teamId)
      .groupBy("server_id")
      .execute(),
  ]);
  const byServer = new Map(usage.map((u) => [u.server_id, u]));
  return servers.map((s) => ({ ...s, fileCount: Number(byServer.get(s.id)?.count ?? 0), usedBytes: Number(byServer.get(s.id)?.bytes ?? 0) }));
}

/** The owner sees their own servers; an admin may open any (the admin list links here). */
export async function findServerForViewer(db: Db, viewer: { teamId: TeamId; role: string }, serverId: ServerId | undefined): Promise<Server | undefined> {
  if (!serverId) return undefined;
  let query = db.selectFrom("servers").selectAll().where("id", "=", serverId);
  if (viewer.role !== "admin") query = query.where("team_id", "=", viewer.teamId);
  return query.executeTakeFirst();
}
