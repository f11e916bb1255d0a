import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { FileRecord } from "../../db/schema.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { createUser } from "../../app/services/accounts/users.server.ts";
import { findPersonalTeam } from "../../app/services/teams/teams.server.ts";
import type { ServerId, TeamId, UserId } from "../../app/lib/ids.ts";
import type { StartedServer } from "../../server.ts";

export interface SeedOwner {
  userId: UserId;
  teamId: TeamId;
  serverId: ServerId;
}

export async function seedOwner(server: StartedServer): Promise<SeedOwner> {
  const user = await createUser(server.ctx.db, { email: `owner-${randomBytes(4).toString("hex")}@example.com`, verified: true });
  const teamId = await findPersonalTeam(server.ctx.db, user.id);
  if (!teamId) throw new Error("a new account has no team");
  const gameServer = await createServer(server.ctx.db, { teamId, name: "Test RP" });
  return { userId: user.id, teamId, serverId: gameServer.id };
}

export interface SeedFileInput {
  bytes: Buffer;
  mimeType: string;
  extension: string;
  isPublic?: boolean;
  category?: string;
  originalFilename?: string;
  width?: number;
  height?: number;
}

/** A stored file as an upload leaves it: blob in the store, row in files. */
export async function seedFile(server: StartedServer, owner: SeedOwner, input: SeedFileInput): Promise<FileRecord> {
  const category = input.category ?? "screenshots";
  const filename = `${randomBytes(8).toString("hex")}.${input.extension}`;
  const storageKey = `${owner.serverId}/${category}/${filename}`;
  const put = await server.ctx.blobs.put(storageKey, Readable.from([input.bytes]), { contentType: input.mimeType });
  return server.ctx.db
    .insertInto("files")
    .values({
      server_id: owner.serverId,
      team_id: owner.teamId,
      storage_key: storageKey,
      filename,
      original_filename: input.originalFilename ?? `photo.${input.extension}`,
      category,
      mime_type: input.mimeType,
      size_bytes: put.size,
      sha256: put.sha256,
      is_public: input.isPublic ?? true,
      width: input.width ?? null,
      height: input.height ?? null,
      metadata: JSON.stringify({}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const filePath = (file: Pick<FileRecord, "server_id" | "category" | "filename">) =>
  `/f/${file.server_id}/${file.category}/${file.filename}`;
