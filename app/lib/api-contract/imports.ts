/** Imports (docs/moving-to-stash.md, decisions 110–112): bring files over from Discord and other hosts. */
import { z } from "zod";
import { json, named, noBody, type ApiOperation } from "~/lib/api-contract/registry";
import { err, keyedErrors } from "~/lib/api-contract/errors";

const obj = z.looseObject;
const SOURCES = ["discord_export", "urls", "discord_bot", "fivemanage", "zipline", "folder"] as const;

export const ImportRequest = named(
  "ImportRequest",
  obj({
    source: z.enum(["urls", "discord_bot", "fivemanage"]).describe("JSON sources; an export, archive or folder goes as multipart"),
    urls: z.union([z.string(), z.array(z.string())]).describe("urls: one per line, or an array; Discord links are keyed by attachment").optional(),
    hosts: z.union([z.string(), z.array(z.string())]).describe("urls: hosts besides Discord's and Fivemanage's the list may name").optional(),
    draft: z.boolean().describe("urls: wait for more batches (POST …/urls) until POST …/start").optional(),
    bot_token: z.string().describe("Your Discord bot's token: refreshes expired links; required for discord_bot; kept only while the import runs").optional(),
    channel_ids: z.union([z.string(), z.array(z.string())]).describe("discord_bot: the channels to read").optional(),
    api_key: z.string().describe("fivemanage: your Fivemanage API key; kept only while the import runs").optional(),
    category: z.string().describe("Category of every imported file; default discord for Discord, imported otherwise").optional(),
    is_public: z.boolean().describe("Default true for Discord rescues (phones load them without a key), else the server's default").optional(),
  }),
);

export const ImportMultipart = named(
  "ImportMultipart",
  obj({
    source: z.enum(["discord_export", "zipline", "folder", "urls"]),
    file: z.string().meta({ format: "binary" }).describe("discord_export: the .json, or a .zip with its _Files folder; zipline: the export .json; folder: a .zip; urls: a text file"),
    bot_token: z.string().optional(),
    instance_url: z.string().describe("zipline: the instance's address").optional(),
    route: z.string().describe("zipline: the raw files route, default /r").optional(),
    category: z.string().optional(),
  }),
);

const ImportView = named(
  "Import",
  obj({
    id: z.string(),
    source: z.enum(SOURCES),
    state: z.enum(["draft", "queued", "running", "finished", "failed", "cancelled"]),
    server_id: z.string(),
    created_at: z.string().meta({ format: "date-time" }),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    progress: obj({ total: z.int(), done: z.int(), stored: z.int(), duplicates: z.int().describe("Already in Stash: the same attachment or the same bytes"), failed: z.int(), percent: z.int() }),
    stored_bytes: z.int(),
    log_entries: z.int().describe("Embeds stored as log entries in the discord-import dataset"),
    failures: z.array(obj({ cause: z.string(), label: z.string(), count: z.int() })),
    error: obj({ code: z.string(), message: z.string() }).nullable().describe("Why the import stopped, when it did"),
    notes: z.array(z.string()),
  }),
);

const ImportReport = named(
  "ImportReport",
  obj({
    rewrite: z.array(obj({ label: z.string(), table: z.string(), column: z.string(), max_length: z.int(), sql: z.string(), too_long: z.int(), longest: z.int() })).describe(
      "Per phone table (LB Phone, qb-phone, NPWD): the statement that points its Discord links at /dc/ on the CDN, and how the rescued links fit the column",
    ),
    failed_items: z.array(obj({ url: z.string(), cause: z.string(), reason: z.string(), detail: z.string().nullable() })),
    failed_items_total: z.int(),
  }),
);

export const ImportAnswer = named(
  "ImportSuccess",
  obj({ import: ImportView, links: obj({ self: z.string(), map_csv: z.string(), map_json: z.string() }), report: ImportReport.optional().describe("Once the import has ended") }),
);
const ImportList = named("ImportList", obj({ imports: z.array(ImportView) }));
const UrlMap = named("ImportUrlMap", obj({ map: z.array(obj({ old: z.string(), new: z.string() })) }));
const UrlBatch = named("ImportUrlBatch", obj({ urls: z.union([z.string(), z.array(z.string())]) }));

const importId = obj({ id: z.string() });
const notFound = err("No import with that id in the key's team");

export const IMPORT_OPERATIONS: ApiOperation[] = [
  {
    method: "post",
    path: "/api/imports",
    summary: "Start an import into the key's server: an export, a list of URLs, a bot's channels, Fivemanage, Zipline or a folder (needs upload)",
    keyed: true,
    body: { required: true, content: { "application/json": ImportRequest, "multipart/form-data": ImportMultipart } },
    responses: {
      "202": json(ImportAnswer, "Queued; follow it with GET /api/imports/{id}"),
      ...keyedErrors,
      "400": err("Missing or invalid fields, or a malformed export (code invalid_export)"),
      "409": err("The team already has an import in progress (code import_in_progress, with import_id)"),
      "413": err("The upload is over IMPORT_MAX_ARCHIVE_MB (code file_too_large)"),
      "422": err("A refused URL — a private address or a host the import does not name (code url_not_allowed, with refused[]) — or an unsafe archive (code unsafe_archive)"),
    },
  },
  { method: "get", path: "/api/imports", summary: "The key's team's imports, newest first (needs read)", keyed: true, responses: { "200": json(ImportList, "Imports"), ...keyedErrors } },
  {
    method: "get",
    path: "/api/imports/{id}",
    summary: "An import's progress and, once it ended, its report",
    keyed: true,
    params: importId,
    responses: { "200": json(ImportAnswer, "The import"), ...keyedErrors, "404": notFound },
  },
  {
    method: "get",
    path: "/api/imports/{id}/map.csv",
    summary: "Old link → new link of every file the import brought, as CSV",
    keyed: true,
    params: importId,
    responses: { "200": noBody("text/csv: old_url,new_url"), ...keyedErrors, "404": notFound },
  },
  {
    method: "get",
    path: "/api/imports/{id}/map.json",
    summary: "Old link → new link of every file the import brought",
    keyed: true,
    params: importId,
    responses: { "200": json(UrlMap, "The map"), ...keyedErrors, "404": notFound },
  },
  {
    method: "post",
    path: "/api/imports/{id}/urls",
    summary: "Add a batch of URLs to a draft import (draft: true); repeats are dropped",
    keyed: true,
    params: importId,
    body: { required: true, content: { "application/json": UrlBatch } },
    responses: { "200": json(ImportAnswer, "The draft"), ...keyedErrors, "404": notFound, "422": err("A refused URL (code url_not_allowed)") },
  },
  {
    method: "post",
    path: "/api/imports/{id}/start",
    summary: "Queue a draft import for the job",
    keyed: true,
    params: importId,
    responses: { "200": json(ImportAnswer, "Queued"), ...keyedErrors, "404": notFound },
  },
  {
    method: "post",
    path: "/api/imports/{id}/cancel",
    summary: "Stop an import: its lent token is forgotten at once; files already stored are kept",
    keyed: true,
    params: importId,
    responses: { "200": json(ImportAnswer, "Cancelled"), ...keyedErrors, "404": notFound },
  },
];
