import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import yazl from "yazl";
import type { AppContext } from "../../app/services/app-context.server.ts";
import { createImport, type CreateImportInput } from "../../app/services/imports/create-import.server.ts";
import { getImport, importReport, type ImportView } from "../../app/services/imports/imports.server.ts";
import { runImportJobs } from "../../app/services/imports/import-runner.server.ts";
import { findServerById } from "../../app/services/servers/servers.server.ts";
import { parseServerId } from "../../app/services/platform/ids.server.ts";
import { UsageError, stringArg, type Command, type CommandOutput, type OptionSpec } from "../command.ts";

type Args = Record<string, string | boolean | undefined>;

const COMMON: Record<string, OptionSpec> = {
  server: { type: "string", required: true, description: "the server the files go to" },
  category: { type: "string", description: "category of the imported files (default: discord for Discord, imported otherwise)" },
  queue: { type: "boolean", description: "only queue the import; a running Stash's job brings the files (PostgreSQL)" },
};

function optional(args: Args, name: string): string | undefined {
  const value = args[name];
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

function existingFile(args: Args, name: string): string {
  const file = stringArg(args, name);
  if (!fs.existsSync(file)) throw new UsageError(`--${name}: ${file} does not exist`);
  return path.resolve(file);
}

/** A folder as a zip of its files (stored, not compressed: media does not shrink), for the folder source. */
async function zipFolder(dir: string): Promise<string> {
  const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "stash-import-")), "folder.zip");
  const zip = new yazl.ZipFile();
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) zip.addFile(full, path.relative(dir, full).split(path.sep).join("/"), { compress: false });
    }
  };
  walk(dir);
  zip.end();
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(fs.createWriteStream(target)).on("close", resolve).on("error", reject));
  return target;
}

function summary(view: ImportView): string {
  const p = view.progress;
  return `${view.state}: ${p.done}/${p.total} (${p.stored} stored, ${p.duplicates} already in Stash, ${p.failed} not brought)`;
}

/** Creates the import, then (unless --queue) runs it here to the end, printing progress on stderr. */
async function startAndRun(ctx: AppContext, args: Args, input: CreateImportInput): Promise<CommandOutput> {
  const serverId = parseServerId(stringArg(args, "server"));
  const server = serverId ? await findServerById(ctx.db, serverId) : undefined;
  if (!server) throw new UsageError(`No server with id ${String(args.server)}`);
  const id = await createImport(ctx, { teamId: server.team_id, serverId: server.id }, { ...input, category: optional(args, "category") });
  if (args.queue !== true) {
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once("SIGINT", stop);
    const ticker = setInterval(() => {
      void getImport(ctx.db, server.team_id, id).then((view) => process.stderr.write(`${summary(view)}\n`), () => undefined);
    }, 2000);
    try {
      await runImportJobs(ctx, controller.signal, { lingerMs: 0, only: id });
    } finally {
      clearInterval(ticker);
      process.off("SIGINT", stop);
    }
  }
  const view = await getImport(ctx.db, server.team_id, id);
  const over = view.state === "finished" || view.state === "failed" || view.state === "cancelled";
  const report = over ? await importReport(ctx, server.team_id, id) : null;
  const lines = [`Import ${id}`, summary(view)];
  for (const failure of view.failures) lines.push(`  ${failure.label}: ${failure.count}`);
  if (view.error) lines.push(`Stopped: ${view.error.message}`);
  for (const note of view.notes) lines.push(`Note: ${note}`);
  if (report) {
    lines.push("", "Fix your game database (back it up first):");
    for (const rewrite of report.rewrite) lines.push(rewrite.sql, rewrite.too_long ? `  -- ${rewrite.too_long} links would not fit ${rewrite.table}.${rewrite.column}` : "");
    lines.push(`Link map: GET /api/imports/${id}/map.csv`);
  } else {
    lines.push("Queued: a running Stash brings the files; follow it on the Import page or GET /api/imports/" + id);
  }
  return { json: { import: view, report }, text: lines.join("\n") };
}

export const importDiscord: Command = {
  name: "import:discord",
  summary: "Rescue Discord files: a DiscordChatExporter export (--export) or channels read by your bot (--channels)",
  options: {
    ...COMMON,
    export: { type: "string", description: "the export's .json, or a .zip of it with its _Files folder (--media)" },
    channels: { type: "string", description: "channel ids to read with the bot, comma-separated (instead of --export)" },
    "bot-token": { type: "string", description: "your bot's token: refreshes expired links; required with --channels; forgotten when the import ends" },
  },
  run(ctx, args) {
    const botToken = optional(args, "bot-token");
    if (optional(args, "channels")) return startAndRun(ctx, args, { source: "discord_bot", botToken: botToken ?? "", channelIds: optional(args, "channels") });
    if (!optional(args, "export")) throw new UsageError("Give --export <file> or --channels <ids> with --bot-token");
    return startAndRun(ctx, args, { source: "discord_export", file: { path: existingFile(args, "export") }, botToken });
  },
};

export const importUrls: Command = {
  name: "import:urls",
  summary: "Import the files at a list of URLs (one per line in --file)",
  options: {
    ...COMMON,
    file: { type: "string", required: true, description: "a text file of URLs, one per line" },
    hosts: { type: "string", description: "your former host's names, comma-separated, when the list has its links" },
    "bot-token": { type: "string", description: "your Discord bot's token, to refresh expired Discord links" },
  },
  run(ctx, args) {
    return startAndRun(ctx, args, { source: "urls", urls: fs.readFileSync(existingFile(args, "file"), "utf8"), hosts: optional(args, "hosts"), botToken: optional(args, "bot-token") });
  },
};

export const importFivemanage: Command = {
  name: "import:fivemanage",
  summary: "Copy every file of a Fivemanage account, listed with its API key",
  options: { ...COMMON, "api-key": { type: "string", required: true, description: "the Fivemanage API key; forgotten when the import ends" } },
  run(ctx, args) {
    return startAndRun(ctx, args, { source: "fivemanage", apiKey: stringArg(args, "api-key") });
  },
};

export const importZipline: Command = {
  name: "import:zipline",
  summary: "Copy the files a Zipline 3 export lists from the instance",
  options: {
    ...COMMON,
    export: { type: "string", required: true, description: "the export's .json (Administration → Export)" },
    instance: { type: "string", required: true, description: "the instance's address, e.g. https://i.example.com" },
    route: { type: "string", description: "the raw files route (default /r)" },
  },
  run(ctx, args) {
    return startAndRun(ctx, args, { source: "zipline", file: { path: existingFile(args, "export") }, instanceUrl: stringArg(args, "instance"), route: optional(args, "route") });
  },
};

export const importFolder: Command = {
  name: "import:folder",
  summary: "Import every file of a folder (or a .zip of one)",
  options: { ...COMMON, path: { type: "string", required: true, description: "a folder, or a .zip of one" } },
  async run(ctx, args) {
    const source = existingFile(args, "path");
    const zip = fs.statSync(source).isDirectory() ? await zipFolder(source) : source;
    try {
      return await startAndRun(ctx, args, { source: "folder", file: { path: zip } });
    } finally {
      if (zip !== source) fs.rmSync(path.dirname(zip), { recursive: true, force: true });
    }
  },
};

export const importCommands = [importDiscord, importUrls, importFivemanage, importZipline, importFolder];
