/** Log operations (docs/decisions/081): the ingest doors of every sender, Loki's push, and search. */
import { z } from "zod";
import { json, named, noBody, type ApiOperation } from "~/lib/api-contract/registry";
import { err, keyedErrors } from "~/lib/api-contract/errors";

const obj = z.looseObject;

export const LogEntries = named(
  "LogEntries",
  z.union([obj({}), z.array(z.unknown())]),
  "Entries: message (required, ≤ 32 KB), level, resource, metadata (object ≤ 16 KB), timestamp (ISO or epoch s/ms/ns), dataset",
);
export const LogIngestAnswer = named("LogIngestSuccess", obj({ success: z.boolean().optional(), accepted: z.int().optional(), datasets: z.array(z.string()).optional() }));
export const LokiPush = named("LokiPush", obj({ streams: z.array(obj({})) }));
export const LogSearchQuery = obj(
  Object.fromEntries(["dataset", "level", "resource", "q", "from", "to", "meta", "limit", "cursor"].map((name) => [name, z.string().optional()])),
);
export const LogSearchAnswer = named(
  "LogSearchSuccess",
  obj({ success: z.boolean().optional(), data: z.array(obj({})).optional(), next_cursor: z.string().nullable().optional() }),
);

const volumeErrors = {
  "413": err("More than 1,000 entries or 2 MB"),
  "429": err("Rate limited, or the plan's monthly log volume is used"),
};

/** The ingest endpoints share one description: the senders differ only in path. */
function logIngest(path: string, summary: string): ApiOperation {
  return {
    method: "post",
    path,
    summary,
    keyed: true,
    headers: obj({ "X-Fivemanage-Dataset": z.string().optional() }),
    body: { required: true, content: { "application/json": LogEntries } },
    responses: { "200": json(LogIngestAnswer, "Stored"), ...keyedErrors, "400": err("An entry is not valid (the error names it)"), ...volumeErrors },
  };
}

export const LOG_OPERATIONS: ApiOperation[] = [
  logIngest(
    "/api/logs",
    "Send log entries: one object, an array or {logs: [...]} (Stash's and Fivemanage's shape); the dataset is each entry's dataset, else X-Fivemanage-Dataset, else default",
  ),
  logIngest("/api/logs/batch", "Fivemanage's batch endpoint (ox_lib's fivemanage logger): an array of entries"),
  logIngest("/api/v3/logs", "Fivemanage v3: an array of entries"),
  logIngest("/v1/logs", "Fivemerr's log endpoint: one entry"),
  {
    method: "post",
    path: "/loki/api/v1/push",
    summary:
      "Grafana Loki's JSON push (ox_lib's loki logger, Promtail): {streams: [{stream: {labels}, values: [[ns, line]]}]}; the key as Basic password or bearer token",
    keyed: true,
    body: { required: true, content: { "application/json": LokiPush } },
    responses: { "204": noBody("Stored, as Loki answers"), ...keyedErrors, "400": err("Not a Loki push"), ...volumeErrors },
  },
  {
    method: "get",
    path: "/api/logs/search",
    summary: "Search the key's server's log entries (read permission), newest first, keyset-paged",
    keyed: true,
    query: LogSearchQuery,
    responses: { "200": json(LogSearchAnswer, "A page of entries"), ...keyedErrors, "400": err("A filter is not valid") },
  },
];
