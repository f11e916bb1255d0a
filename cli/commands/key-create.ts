import type { AppContext } from "../../app/services/app-context.server.ts";
import { createApiKey, InvalidPermissionError } from "../../app/services/api-keys.server.ts";
import { findServerById } from "../../app/services/servers.server.ts";

type Args = Record<string, string | boolean | undefined>;

/**
 * `key:create --server <id> --name <name> [--permissions upload,read,delete] [--json]`.
 * Prints the secret once; only its hash is stored. Same shape as the other commands' `run`.
 */
export async function keyCreate(ctx: AppContext, args: Args): Promise<{ json: unknown; text: string }> {
  const serverId = typeof args.server === "string" ? args.server.trim() : "";
  const name = typeof args.name === "string" ? args.name.trim() : "";
  if (!serverId) throw new Error("--server is required");
  if (!name) throw new Error("--name is required");
  const server = await findServerById(ctx.db, serverId);
  if (!server) throw new Error(`No server with id ${serverId}`);
  const permissions = typeof args.permissions === "string" ? args.permissions.split(",") : undefined;
  let created;
  try {
    created = await createApiKey(ctx.db, { serverId: server.id, userId: server.user_id, name, permissions });
  } catch (error) {
    if (error instanceof InvalidPermissionError) throw new Error(error.message);
    throw error;
  }
  const { key, secret } = created;
  return {
    json: { id: key.id, server_id: key.server_id, name: key.name, key_prefix: key.key_prefix, permissions: key.permissions, api_key: secret },
    text: [
      `Created API key "${key.name}" for server ${server.name} (${server.id})`,
      `Permissions: ${key.permissions.join(", ")}`,
      `API key (shown once, store it now): ${secret}`,
    ].join("\n"),
  };
}
