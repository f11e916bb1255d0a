import type { Db } from "../../../db/index";
import type { Server, ServerStatus } from "../../../db/schema";
import { DEFAULT_FILE_TYPES } from "~/lib/file-types";
import { newServerId, randomString } from "~/services/platform/ids.server";
import type { ServerId, TeamId } from "~/lib/ids";

export interface CreateServerInput {
  teamId: TeamId;
  name: string;
  description?: string | null;
  endpointUrl?: string | null;
  maxFileSizeMb?: number;
  allowedFileTypes?: string[];
  defaultPublic?: boolean;
}

export function newWebhookSecret(): string {
  return randomString(40);
}

export function createServer(db: Db, input: CreateServerInput): Promise<Server> {
  return db
    .insertInto("servers")
    .values({
      id: newServerId(),
      team_id: input.teamId,
      name: input.name,
      description: input.description ?? null,
      endpoint_url: input.endpointUrl ?? null,
      max_file_size_mb: input.maxFileSizeMb ?? 50,
      allowed_file_types: input.allowedFileTypes ?? [...DEFAULT_FILE_TYPES],
      default_public: input.defaultPublic ?? true,
      webhook_secret: newWebhookSecret(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findServerById(db: Db, id: ServerId): Promise<Server | undefined> {
  return db.selectFrom("servers").selectAll().where("id", "=", id).executeTakeFirst();
}

/** A server only if it belongs to the user; the portal never reveals other owners' servers. */
export async function findServerForTeam(db: Db, teamId: TeamId, id: ServerId | undefined): Promise<Server | undefined> {
  if (!id) return undefined;
  return db.selectFrom("servers").selectAll().where("id", "=", id).where("team_id", "=", teamId).executeTakeFirst();
}

export function listServersForTeam(db: Db, teamId: TeamId): Promise<Server[]> {
  return db.selectFrom("servers").selectAll().where("team_id", "=", teamId).orderBy("created_at", "desc").execute();
}

export const SERVER_STATUSES: readonly ServerStatus[] = ["active", "inactive", "maintenance"];

export interface ServerChanges {
  allowedFileTypes?: string[];
  maxFileSizeMb?: number;
  defaultPublic?: boolean;
  status?: ServerStatus;
}

/** An operator's change of a server's upload settings (the CLI); undefined when there is no such server. */
export function updateServer(db: Db, id: ServerId, changes: ServerChanges): Promise<Server | undefined> {
  return db
    .updateTable("servers")
    .set({
      ...(changes.allowedFileTypes ? { allowed_file_types: changes.allowedFileTypes } : {}),
      ...(changes.maxFileSizeMb !== undefined ? { max_file_size_mb: changes.maxFileSizeMb } : {}),
      ...(changes.defaultPublic !== undefined ? { default_public: changes.defaultPublic } : {}),
      ...(changes.status ? { status: changes.status } : {}),
      updated_at: new Date(),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
}
