import type { Db } from "../../db/index.ts";
import type { Server } from "../../db/schema.ts";
import { DEFAULT_FILE_TYPES } from "../lib/file-types.ts";
import { newServerId, randomString } from "./ids.server.ts";

export interface CreateServerInput {
  userId: string;
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
      user_id: input.userId,
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

export function findServerById(db: Db, id: string): Promise<Server | undefined> {
  return db.selectFrom("servers").selectAll().where("id", "=", id).executeTakeFirst();
}

/** A server only if it belongs to the user; the portal never reveals other owners' servers. */
export function findServerForUser(db: Db, userId: string, id: string): Promise<Server | undefined> {
  return db.selectFrom("servers").selectAll().where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
}

export function listServersForUser(db: Db, userId: string): Promise<Server[]> {
  return db.selectFrom("servers").selectAll().where("user_id", "=", userId).orderBy("created_at", "desc").execute();
}
