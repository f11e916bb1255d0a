import { DomainError } from "~/services/platform/domain-error.server";
import type { CreateImportInput, UploadedSourceFile } from "~/services/imports/create-import.server";

export const IMPORT_SOURCES = ["discord_export", "urls", "discord_bot", "fivemanage", "zipline", "folder"] as const;

/** The CLI's and the docs' names for each source (`import:discord` …) map onto these. */
export type ImportSourceName = (typeof IMPORT_SOURCES)[number];

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map(String).join("\n");
  const s = String(value).trim();
  return s || undefined;
}

function flag(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "boolean") return value;
  const s = String(value).trim().toLowerCase();
  if (["true", "1", "yes", "on"].includes(s)) return true;
  if (["false", "0", "no", "off"].includes(s)) return false;
  throw new DomainError("invalid_request", `${field} must be true or false`, { field });
}

function needFile(file: UploadedSourceFile | undefined, what: string): UploadedSourceFile {
  if (!file) throw new DomainError("missing_file", `Upload ${what}`, { field: "file" });
  return file;
}

/**
 * What an import request says, whichever door it came through (the portal's form, the API's JSON or
 * multipart, the CLI's flags): `source` and that source's fields, with the uploaded file when the
 * source needs one. A list of URLs may come as text (`urls`) or as an uploaded text file.
 */
export function parseImportFields(fields: Record<string, unknown>, file?: UploadedSourceFile & { text?: string }): CreateImportInput {
  const source = text(fields.source);
  if (!source || !(IMPORT_SOURCES as readonly string[]).includes(source)) {
    throw new DomainError("invalid_request", `source must be one of ${IMPORT_SOURCES.join(", ")}`, { field: "source" });
  }
  const common = { category: text(fields.category), isPublic: flag(fields.is_public, "is_public") };
  switch (source as ImportSourceName) {
    case "discord_export":
      return { ...common, source: "discord_export", file: needFile(file, "the DiscordChatExporter export (.json, or .zip with --media)"), botToken: text(fields.bot_token) };
    case "urls": {
      const urls = fields.urls !== undefined && fields.urls !== "" ? fields.urls : file?.text;
      if (urls === undefined) throw new DomainError("invalid_request", "Paste the URLs, one per line, or upload them as a text file", { field: "urls" });
      return { ...common, source: "urls", urls, hosts: fields.hosts, botToken: text(fields.bot_token), draft: flag(fields.draft, "draft") };
    }
    case "discord_bot":
      return { ...common, source: "discord_bot", botToken: text(fields.bot_token) ?? "", channelIds: fields.channel_ids ?? "" };
    case "fivemanage":
      return { ...common, source: "fivemanage", apiKey: text(fields.api_key) ?? "" };
    case "zipline":
      return { ...common, source: "zipline", file: needFile(file, "the Zipline export (.json)"), instanceUrl: fields.instance_url, route: text(fields.route) };
    case "folder":
      return { ...common, source: "folder", file: needFile(file, "the folder as a .zip") };
  }
}
