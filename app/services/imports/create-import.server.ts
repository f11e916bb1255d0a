import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { Readable } from "node:stream";
import type { Db } from "../../../db/index";
import type { ImportSource } from "../../../db/schema";
import type { AppContext } from "~/services/app-context.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { categorySlug } from "~/lib/categories";
import type { ApiKeyId, ImportId, ServerId, TeamId, UserId } from "~/lib/ids";
import type { LogInput } from "~/services/logs/log-parsing.server";
import { loadUploadTarget } from "~/services/uploads/store-upload.server";
import type { ImportItemInput } from "~/services/imports/import-items.server";
import { parseChatExportText, type ChatExport } from "~/services/imports/chat-exporter.server";
import { ImportArchive } from "~/services/imports/import-archive.server";
import { parseHostList, parseUrlList, urlRefusal } from "~/services/imports/url-list.server";
import { parseZiplineExport, ziplineBaseUrl } from "~/services/imports/zipline-export.server";
import { isSnowflake } from "~/services/imports/discord-urls.server";
import { archiveKey, archiveLimits, importBlobPrefix, logEntriesKey, MAX_EXPORT_JSON_BYTES } from "~/services/imports/import-blobs.server";

/** A file the owner uploaded with the import (an export or an archive), already on this machine's disk. */
export interface UploadedSourceFile {
  path: string;
  filename?: string;
}

interface Common {
  /** Where imported files go; Discord rescues default to `discord`, others to `imported`. */
  category?: string;
  /** Public unless said otherwise for Discord rescues (game phones load them without a key); else the server's default. */
  isPublic?: boolean;
}

export type CreateImportInput = Common &
  (
    | { source: "discord_export"; file: UploadedSourceFile; botToken?: string }
    | { source: "urls"; urls: unknown; hosts?: unknown; botToken?: string; draft?: boolean }
    | { source: "discord_bot"; botToken: string; channelIds: unknown }
    | { source: "fivemanage"; apiKey: string }
    | { source: "zipline"; file: UploadedSourceFile; instanceUrl: unknown; route?: string }
    | { source: "folder"; file: UploadedSourceFile }
  );

export interface ImportScope {
  teamId: TeamId;
  serverId: ServerId;
  userId?: UserId | null;
  keyId?: ApiKeyId | null;
}

/** What a source hands the new import: its files, and what else the job needs. */
interface Intake {
  items: ImportItemInput[];
  options: Record<string, unknown>;
  secret: string | null;
  archivePath: string | null;
  logEntries: LogInput[];
}

const MAX_CHANNELS = 50;

function token(value: unknown, what: string): string {
  const text = typeof value === "string" ? value.trim().replace(/^Bot\s+/i, "") : "";
  if (!text) throw new DomainError("invalid_request", `Give the ${what}`, { field: what === "bot token" ? "bot_token" : "api_key" });
  if (text.length > 200 || /\s/.test(text)) throw new DomainError("invalid_request", `That ${what} is not valid`, { field: what === "bot token" ? "bot_token" : "api_key" });
  return text;
}

function optionalToken(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? token(value, "bot token") : null;
}

async function fileKind(path: string): Promise<"zip" | "json" | "other"> {
  const handle = await fs.promises.open(path, "r");
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await handle.read(head, 0, 8, 0);
    if (bytesRead >= 4 && head.readUInt32LE(0) === 0x04034b50) return "zip";
    const text = head.subarray(0, bytesRead).toString("utf8").replace(/^\ufeff/, "").trimStart();
    return text.startsWith("{") ? "json" : "other";
  } finally {
    await handle.close();
  }
}

async function readJsonFile(path: string): Promise<string> {
  const { size } = await fs.promises.stat(path);
  if (size > MAX_EXPORT_JSON_BYTES) throw new DomainError("invalid_export", `The export is larger than ${MAX_EXPORT_JSON_BYTES / (1024 * 1024)} MB; export the channel in parts (--partition)`);
  return fs.promises.readFile(path, "utf8");
}

/** A DiscordChatExporter export: one JSON file, or a zip of one or more (with their `_Files` folders). */
async function discordExportIntake(ctx: AppContext, file: UploadedSourceFile): Promise<Intake> {
  const kind = await fileKind(file.path);
  const exports: ChatExport[] = [];
  let archivePath: string | null = null;
  if (kind === "json") {
    const parsed = parseChatExportText(await readJsonFile(file.path));
    if (parsed.media) {
      throw new DomainError("invalid_export", "This export was made with --media: its files are in the folder next to the JSON. Upload the JSON and its _Files folder together as one zip.");
    }
    exports.push(parsed);
  } else if (kind === "zip") {
    const archive = await ImportArchive.open(file.path, archiveLimits(ctx.config));
    try {
      for (const entry of archive.entries) {
        if (!entry.name.toLowerCase().endsWith(".json") || entry.name.split("/").some((part) => part.startsWith("__MACOSX"))) continue;
        if (entry.size > MAX_EXPORT_JSON_BYTES) throw new DomainError("invalid_export", `${entry.name} is larger than ${MAX_EXPORT_JSON_BYTES / (1024 * 1024)} MB; export the channel in parts (--partition)`);
        const dir = entry.name.includes("/") ? entry.name.slice(0, entry.name.lastIndexOf("/")) : "";
        exports.push(parseChatExportText(await archive.readText(entry.name), dir));
      }
    } finally {
      archive.close();
    }
    if (exports.length === 0) throw new DomainError("invalid_export", "The zip holds no DiscordChatExporter JSON export (--format Json)");
    if (exports.some((e) => e.media)) archivePath = file.path;
  } else {
    throw new DomainError("invalid_export", "Upload the DiscordChatExporter export as its .json file, or as a .zip with its _Files folder");
  }
  return {
    items: exports.flatMap((e) => e.items),
    logEntries: exports.flatMap((e) => e.logEntries),
    archivePath,
    secret: null,
    options: {
      media: archivePath !== null,
      channels: exports.map((e) => ({ id: e.channelId, name: e.channelName, guild: e.guildName, messages: e.messageCount })),
    },
  };
}

async function folderIntake(ctx: AppContext, file: UploadedSourceFile): Promise<Intake> {
  if ((await fileKind(file.path)) !== "zip") throw new DomainError("invalid_export", "Upload the folder as a .zip file");
  const archive = await ImportArchive.open(file.path, archiveLimits(ctx.config));
  const entries = archive.entries;
  archive.close();
  const items = entries
    .filter((entry) => !entry.name.split("/").some((part) => part.startsWith(".") || part === "__MACOSX") && entry.size > 0)
    .map((entry) => ({ ref: `archive:${entry.name}`, filename: entry.name.split("/").pop()!, sizeBytes: entry.size }));
  if (items.length === 0) throw new DomainError("invalid_export", "The zip holds no files");
  return { items, logEntries: [], archivePath: file.path, secret: null, options: {} };
}

async function ziplineIntake(ctx: AppContext, file: UploadedSourceFile, instanceUrl: unknown, route: string | undefined): Promise<Intake> {
  const base = ziplineBaseUrl(instanceUrl);
  const host = new URL(base).hostname.toLowerCase();
  const refusal = urlRefusal(new URL(base), [host], ctx.config.OUTBOUND_ALLOW_PRIVATE_NETWORKS);
  if (refusal) throw new DomainError("url_not_allowed", `The Zipline address was refused: ${refusal}`, { field: "instance_url" });
  let json: unknown;
  try {
    json = JSON.parse((await readJsonFile(file.path)).replace(/^\ufeff/, ""));
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError("invalid_export", `The Zipline export is not valid JSON (${(error as Error).message})`);
  }
  const cleanRoute = route?.trim() || "/r";
  if (!/^\/?[A-Za-z0-9_-]+\/?$/.test(cleanRoute)) throw new DomainError("invalid_request", "The route must be one path segment such as /r or /u", { field: "route" });
  const parsed = parseZiplineExport(json, base, cleanRoute);
  if (parsed.items.length === 0) throw new DomainError("invalid_export", "The Zipline export lists no files that can be fetched");
  return { items: parsed.items, logEntries: [], archivePath: null, secret: null, options: { instance_url: base, host, password_protected: parsed.passwordProtected } };
}

async function intakeOf(ctx: AppContext, input: CreateImportInput): Promise<Intake> {
  switch (input.source) {
    case "discord_export":
      return { ...(await discordExportIntake(ctx, input.file)), secret: optionalToken(input.botToken) };
    case "urls": {
      const hosts = parseHostList(input.hosts);
      const list = parseUrlList(input.urls, { hosts, allowPrivateNetworks: ctx.config.OUTBOUND_ALLOW_PRIVATE_NETWORKS });
      return { items: list.items, logEntries: [], archivePath: null, secret: optionalToken(input.botToken), options: { hosts, repeated: list.repeated } };
    }
    case "discord_bot": {
      const raw = Array.isArray(input.channelIds) ? input.channelIds : String(input.channelIds ?? "").split(/[\s,]+/);
      const channels = [...new Set(raw.map((id) => String(id).trim()).filter(Boolean))];
      if (channels.length === 0) throw new DomainError("invalid_request", "Give at least one channel id (right-click the channel in Discord, Copy Channel ID)", { field: "channel_ids" });
      const bad = channels.find((id) => !isSnowflake(id));
      if (bad) throw new DomainError("invalid_request", `${bad} is not a Discord channel id`, { field: "channel_ids" });
      if (channels.length > MAX_CHANNELS) throw new DomainError("invalid_request", `At most ${MAX_CHANNELS} channels per import`, { field: "channel_ids" });
      return { items: [], logEntries: [], archivePath: null, secret: token(input.botToken, "bot token"), options: { channel_ids: channels } };
    }
    case "fivemanage":
      return { items: [], logEntries: [], archivePath: null, secret: token(input.apiKey, "Fivemanage API key"), options: {} };
    case "zipline":
      return ziplineIntake(ctx, input.file, input.instanceUrl, input.route);
    case "folder":
      return folderIntake(ctx, input.file);
  }
}

/** The team's import that is not over yet (one at a time), if any. */
export function activeImport(db: Db, teamId: TeamId) {
  return db.selectFrom("imports").select(["id", "state"]).where("team_id", "=", teamId).where("state", "in", ["draft", "queued", "running"]).executeTakeFirst();
}

export const importInProgress = (id: string) =>
  new DomainError("import_in_progress", "This team already has an import in progress; wait for it to finish or cancel it first", { import_id: id });

/** Records an import's files, numbered from `firstSeq` in the order the job fetches them. */
export async function insertImportItems(db: Db, importId: ImportId, items: ImportItemInput[], firstSeq: number): Promise<void> {
  for (let start = 0; start < items.length; start += 1000) {
    await db
      .insertInto("import_items")
      .values(
        items.slice(start, start + 1000).map((item, index) => ({
          import_id: importId,
          seq: firstSeq + start + index,
          ref: item.ref,
          filename: item.filename ?? null,
          channel_id: item.channelId ?? null,
          attachment_id: item.attachmentId ?? null,
          message_id: item.messageId ?? null,
          author: item.author ?? null,
          posted_at: item.postedAt ?? null,
          size_bytes: item.sizeBytes ?? null,
        })),
      )
      .execute();
  }
}

/**
 * Starts an import: checks the server (active, the team's), reads the source (refusing a malformed
 * export, an unsafe archive, a refused URL — before anything is kept), stores what the job will need
 * (the archive, the export's log entries) under `imports/{id}/`, and records the import and its files
 * in one transaction, queued for the job (or as a draft that takes more URLs). One import at a time
 * per team: a second is refused with `import_in_progress`, and leaves nothing behind.
 */
export async function createImport(ctx: AppContext, scope: ImportScope, input: CreateImportInput): Promise<ImportId> {
  await loadUploadTarget(ctx.db, ctx.config.maxUploadBytes, scope.serverId, { via: "import", keyId: null });
  const waiting = await activeImport(ctx.db, scope.teamId);
  if (waiting) throw importInProgress(waiting.id);
  const intake = await intakeOf(ctx, input);
  const id = randomUUID() as ImportId;
  const discordSource = input.source === "discord_export" || input.source === "discord_bot" || (input.source === "urls" && intake.items.some((i) => i.attachmentId));
  const options = {
    ...intake.options,
    category: categorySlug(input.category ?? (discordSource ? "discord" : "imported")),
    ...(input.isPublic !== undefined ? { is_public: input.isPublic } : discordSource ? { is_public: true } : {}),
    ...(intake.logEntries.length ? { log_entries_pending: intake.logEntries.length } : {}),
  };
  const keys: string[] = [];
  try {
    if (intake.archivePath) {
      await ctx.blobs.put(archiveKey(id), fs.createReadStream(intake.archivePath));
      keys.push(archiveKey(id));
    }
    if (intake.logEntries.length) {
      const ndjson = intake.logEntries.map((entry) => JSON.stringify(entry)).join("\n");
      await ctx.blobs.put(logEntriesKey(id), Readable.from([Buffer.from(ndjson)]));
      keys.push(logEntriesKey(id));
    }
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("imports")
        .values({
          id,
          team_id: scope.teamId,
          server_id: scope.serverId,
          source: input.source as ImportSource,
          state: input.source === "urls" && input.draft ? "draft" : "queued",
          options: JSON.stringify(options),
          secret: intake.secret,
          source_key: keys.length ? importBlobPrefix(id) : null,
          cursor: JSON.stringify({ phase: intake.items.length || input.source === "urls" ? "fetch" : "discover" }),
          total: intake.items.length,
          created_by_user_id: scope.userId ?? null,
          created_by_key_id: scope.keyId ?? null,
        })
        .execute()
        .catch(async (error: { code?: string }) => {
          if (error.code === "23505") {
            const other = await activeImport(ctx.db, scope.teamId);
            throw importInProgress(other?.id ?? "");
          }
          throw error;
        });
      await insertImportItems(trx, id, intake.items, 0);
    });
  } catch (error) {
    await Promise.all(keys.map((key) => ctx.blobs.delete(key).catch(() => undefined)));
    throw error;
  }
  return id;
}
