import type { Server, ServerStatus } from "../../db/schema.ts";
import { FILE_TYPE_GROUPS, groupAllowedTypes, normaliseFileTypes } from "../../app/lib/file-types.ts";
import { MAX_FILE_SIZE_MB, MESSAGES } from "../../app/lib/server-form.ts";
import type { AppContext } from "../../app/services/app-context.server.ts";
import { webhookUrl } from "../../app/services/servers/server-settings.server.ts";
import { createServer, findServerById, SERVER_STATUSES, updateServer, type ServerChanges } from "../../app/services/servers/servers.server.ts";
import { TEAM_OPTION, teamFromArgs } from "./teams.ts";
import { stringArg, UsageError, type Command, type CommandOutput } from "../command.ts";
import { parseServerId } from "../../app/services/platform/ids.server.ts";

const SERVER_NAME = /^[A-Za-z0-9 _-]{1,100}$/;

/** What server:show and server:update print: the settings an operator checks, with the webhook URL. */
function describeServer(ctx: AppContext, server: Server): CommandOutput {
  const byGroup = groupAllowedTypes(server.allowed_file_types);
  const hook = webhookUrl(ctx.config.appUrl, server);
  return {
    json: {
      id: server.id,
      name: server.name,
      status: server.status,
      webhook_url: hook,
      allowed_types: server.allowed_file_types,
      allowed_types_by_group: byGroup,
      max_file_size_mb: server.max_file_size_mb,
      default_public: server.default_public,
    },
    text: [
      `Server:            ${server.name} (${server.id})`,
      `Status:            ${server.status}`,
      `Webhook URL:       ${hook}`,
      `Max file size:     ${server.max_file_size_mb} MB`,
      `Default visibility: ${server.default_public ? "public" : "private"}`,
      "Allowed types:",
      ...(byGroup.length ? byGroup.map((g) => `  ${g.label}: ${g.types.join(", ")}`) : ["  none"]),
    ].join("\n"),
  };
}

async function serverArg(ctx: AppContext, args: Record<string, string | boolean | undefined>): Promise<Server> {
  const id = stringArg(args, "id");
  const serverId = parseServerId(id);
  const server = serverId && (await findServerById(ctx.db, serverId));
  if (!server) throw new UsageError(`No server with id ${id}`);
  return server;
}

export const serverCreate: Command = {
  name: "server:create",
  summary: "Register a game server for a team; prints the server id and its webhook URL",
  options: {
    owner: { type: "string", required: true, description: "the e-mail of a member of the team" },
    team: TEAM_OPTION,
    name: { type: "string", required: true, description: "server name (letters, numbers, spaces, - and _)" },
    private: { type: "boolean", description: "new uploads are private unless a script says otherwise" },
  },
  async run(ctx, args) {
    const name = stringArg(args, "name");
    if (!SERVER_NAME.test(name)) throw new UsageError(MESSAGES.name);
    const team = await teamFromArgs(ctx, args, "owner");
    const server = await createServer(ctx.db, { teamId: team.id, name, defaultPublic: args.private !== true });
    const hook = webhookUrl(ctx.config.appUrl, server);
    return {
      json: { id: server.id, name: server.name, owner: team.email, team: { id: team.id, name: team.name }, default_public: server.default_public, webhook_url: hook },
      // The id stays alone on the first line for scripts that read it; --json has every field.
      text: `${server.id}\nWebhook URL: ${hook}`,
    };
  },
};

export const serverShow: Command = {
  name: "server:show",
  summary: "Show a server's webhook URL, allowed types, size limit, visibility and status",
  options: {
    id: { type: "string", required: true, description: "the server id" },
  },
  async run(ctx, args) {
    return describeServer(ctx, await serverArg(ctx, args));
  },
};

const GROUP_NAMES = FILE_TYPE_GROUPS.map((g) => g.id).join(", ");

/** Every value is checked before anything is written, so a bad one changes nothing. */
function parseChanges(args: Record<string, string | boolean | undefined>): ServerChanges {
  const changes: ServerChanges = {};
  const types = args["allowed-types"];
  if (types !== undefined) {
    const { types: chosen, unknown } = normaliseFileTypes(String(types).split(","));
    if (unknown.length) throw new UsageError(`Unknown file type ${unknown.join(", ")}: use type names (jpg, webp, weba, …) or groups (${GROUP_NAMES})`);
    if (chosen.length === 0) throw new UsageError(MESSAGES.fileTypes);
    changes.allowedFileTypes = chosen;
  }
  const size = args["max-file-size-mb"];
  if (size !== undefined) {
    const mb = Number(String(size).trim());
    if (!/^\d+$/.test(String(size).trim()) || mb < 1 || mb > MAX_FILE_SIZE_MB) throw new UsageError(MESSAGES.fileSize);
    changes.maxFileSizeMb = mb;
  }
  const visibility = args["default-public"];
  if (visibility !== undefined) {
    if (visibility !== "true" && visibility !== "false") throw new UsageError("--default-public must be true or false");
    changes.defaultPublic = visibility === "true";
  }
  const status = args.status;
  if (status !== undefined) {
    if (!SERVER_STATUSES.includes(status as ServerStatus)) throw new UsageError(`--status must be one of ${SERVER_STATUSES.join(", ")}`);
    changes.status = status as ServerStatus;
  }
  if (Object.keys(changes).length === 0) throw new UsageError("Nothing to change: pass at least one of --allowed-types, --max-file-size-mb, --default-public, --status");
  return changes;
}

export const serverUpdate: Command = {
  name: "server:update",
  summary: "Change a server's allowed types, size limit, default visibility or status",
  options: {
    id: { type: "string", required: true, description: "the server id" },
    "allowed-types": { type: "string", description: `comma-separated types and/or groups, e.g. jpg,webp or ${GROUP_NAMES.replace(/, /g, ",")}` },
    "max-file-size-mb": { type: "string", description: `maximum file size in MB (1-${MAX_FILE_SIZE_MB})` },
    "default-public": { type: "string", description: "true | false: whether uploads are public unless a script says otherwise" },
    status: { type: "string", description: SERVER_STATUSES.join(" | ") },
  },
  async run(ctx, args) {
    const changes = parseChanges(args);
    const server = await serverArg(ctx, args);
    const updated = await updateServer(ctx.db, server.id, changes);
    if (!updated) throw new UsageError(`No server with id ${server.id}`);
    return describeServer(ctx, updated);
  },
};
