import { randomBytes } from "node:crypto";
import type { AppContext } from "../../app/services/app-context.server.ts";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { createServer, type CreateServerInput } from "../../app/services/servers/servers.server.ts";
import { createUser } from "../../app/services/accounts/users.server.ts";
import { findPersonalTeam } from "../../app/services/teams/teams.server.ts";
import type { ApiKeyId, ServerId, TeamId, UserId } from "../../app/lib/ids.ts";

export interface SeededAccount {
  userId: UserId;
  /** The account's own team, which owns the server and the key. */
  teamId: TeamId;
  serverId: ServerId;
  webhookSecret: string;
  /** The API key secret. */
  key: string;
  keyId: ApiKeyId;
}

/** A user with one server and one API key, made through the real services. */
export async function seedAccount(
  ctx: Pick<AppContext, "db">,
  options: {
    server?: Partial<Omit<CreateServerInput, "teamId">>;
    permissions?: string[];
    expiresAt?: Date;
    /** Off unless asked: tests of upload mechanics compare the bytes they sent with what is stored. */
    convertToWebp?: boolean;
  } = {},
): Promise<SeededAccount> {
  const user = await createUser(ctx.db, { email: `owner-${randomBytes(5).toString("hex")}@example.com`, verified: true });
  const teamId = await findPersonalTeam(ctx.db, user.id);
  if (!teamId) throw new Error("a new account has no team");
  const server = await createServer(ctx.db, {
    name: "Los Santos RP",
    allowedFileTypes: ["jpg", "jpeg", "png", "gif", "webp", "mp4", "webm", "ogg", "mp3", "pdf"],
    ...options.server,
    teamId,
  });
  if (!options.convertToWebp) await ctx.db.updateTable("servers").set({ convert_to_webp: false }).where("id", "=", server.id).execute();
  const { key, secret } = await createApiKey(ctx.db, {
    serverId: server.id,
    teamId,
    name: "game server",
    permissions: options.permissions,
    expiresAt: options.expiresAt,
  });
  return { userId: user.id, teamId, serverId: server.id, webhookSecret: server.webhook_secret, key: secret, keyId: key.id };
}
