import { randomBytes } from "node:crypto";
import type { AppContext } from "../../app/services/app-context.server.ts";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { createServer, type CreateServerInput } from "../../app/services/servers/servers.server.ts";
import { createUser } from "../../app/services/accounts/users.server.ts";

export interface SeededAccount {
  userId: string;
  serverId: string;
  webhookSecret: string;
  /** The API key secret. */
  key: string;
  keyId: string;
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
  const server = await createServer(ctx.db, {
    name: "Los Santos RP",
    allowedFileTypes: ["jpg", "jpeg", "png", "gif", "webp", "mp4", "webm", "ogg", "mp3", "pdf"],
    ...options.server,
    teamId: user.id,
  });
  if (!options.convertToWebp) await ctx.db.updateTable("servers").set({ convert_to_webp: false }).where("id", "=", server.id).execute();
  const { key, secret } = await createApiKey(ctx.db, {
    serverId: server.id,
    teamId: user.id,
    name: "game server",
    permissions: options.permissions,
    expiresAt: options.expiresAt,
  });
  return { userId: user.id, serverId: server.id, webhookSecret: server.webhook_secret, key: secret, keyId: key.id };
}
