import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { isDomainError } from "../../app/services/platform/domain-error.server.ts";
import { findServerById } from "../../app/services/servers/servers.server.ts";
import { stringArg, UsageError, type Command } from "../command.ts";
import { parseServerId } from "../../app/services/platform/ids.server.ts";

export const keyCreate: Command = {
  name: "key:create",
  summary: "Create an API key for a server; prints the key once (only its hash is stored)",
  options: {
    server: { type: "string", required: true, description: "the server id" },
    name: { type: "string", required: true, description: "a label for the key, e.g. the script using it" },
    permissions: { type: "string", description: "comma-separated: upload, read, delete (default upload,read)" },
  },
  async run(ctx, args) {
    const serverId = parseServerId(stringArg(args, "server"));
    const server = serverId && (await findServerById(ctx.db, serverId));
    if (!server) throw new UsageError(`No server with id ${args.server}`);
    const permissions = typeof args.permissions === "string" ? args.permissions.split(",") : undefined;
    try {
      const { key, secret } = await createApiKey(ctx.db, { serverId: server.id, teamId: server.team_id, name: stringArg(args, "name"), permissions });
      return {
        json: { id: key.id, server_id: key.server_id, name: key.name, key_prefix: key.key_prefix, permissions: key.permissions, api_key: secret },
        text: secret,
      };
    } catch (error) {
      if (isDomainError(error, "invalid_request")) throw new UsageError(error.message);
      throw error;
    }
  },
};
