import { createServer } from "../../app/services/servers.server.ts";
import { findUserByEmail } from "../../app/services/users.server.ts";
import { stringArg, UsageError, type Command } from "../command.ts";

const SERVER_NAME = /^[A-Za-z0-9 _-]{1,100}$/;

export const serverCreate: Command = {
  name: "server:create",
  summary: "Register a game server for a user; prints the server id",
  options: {
    owner: { type: "string", required: true, description: "the owner's e-mail" },
    name: { type: "string", required: true, description: "server name (letters, numbers, spaces, - and _)" },
    private: { type: "boolean", description: "new uploads are private unless a script says otherwise" },
  },
  async run(ctx, args) {
    const name = stringArg(args, "name");
    if (!SERVER_NAME.test(name)) throw new UsageError("Server name can only contain letters, numbers, spaces, hyphens, and underscores");
    const owner = await findUserByEmail(ctx.db, stringArg(args, "owner"));
    if (!owner) throw new UsageError(`No user with e-mail ${args.owner}`);
    const server = await createServer(ctx.db, { userId: owner.id, name, defaultPublic: args.private !== true });
    return {
      json: { id: server.id, name: server.name, owner: owner.email, default_public: server.default_public },
      text: server.id,
    };
  },
};
