/** File operations: search, a file's record, signed URLs, downloads and the /f/ path. */
import { z } from "zod";
import { json, named, noBody, type ApiAnswer, type ApiOperation } from "~/lib/api-contract/registry";
import { binary, DeleteSuccess, FileSuccess, SearchSuccess } from "~/lib/api-contract/schemas";
import { err, keyedErrors } from "~/lib/api-contract/errors";

const obj = z.looseObject;

export const SearchQuery = obj({
  category: z.string().describe("Exact category").optional(),
  player_name: z.string().describe("Substring of the player name, case-insensitive").optional(),
  player_identifier: z.string().describe("Exact identifier").optional(),
  filename: z.string().describe("Substring of the stored or original file name, case-insensitive").optional(),
  from_date: z.string().describe("YYYY-MM-DD or ISO 8601, inclusive: the earliest upload time").optional(),
  to_date: z.string().describe("YYYY-MM-DD or ISO 8601, inclusive: the latest upload time").optional(),
  metadata: z.string().describe("A JSON object the file's metadata must contain").optional(),
  sort: z.string().describe("desc (default, newest first) or asc by upload time").optional(),
  limit: z.int().describe("Default 50 with offset paging, 20 with page paging; max 100").optional(),
  offset: z.int().describe("Default 0").optional(),
  page: z.int().describe("1-based; switches to page paging").optional(),
  server_id: z.string().describe("Optional; must be the key's server").optional(),
});

export const SignedUrlQuery = obj({
  expires_in: z.int().min(60).max(604800).describe("Seconds, 60 to 604800 (7 days); default 3600").optional(),
});

export const SignedUrlAnswer = named(
  "SignedUrlSuccess",
  obj({
    id: z.string(),
    url: z.string().meta({ format: "uri" }),
    expires_at: z.string().meta({ format: "date-time" }),
    expires_in: z.int(),
    data: obj({ url: z.string(), expires_at: z.string(), expires_in: z.int() }).describe("The same link, for clients that read data").optional(),
  }),
);

const fileId = obj({ id: z.string() });
const filePath = obj({ server_id: z.string(), category: z.string(), filename: z.string() });
const downloadQuery = obj({ file: z.string().describe("{server_id}/{category}/{filename}") });

const downloadResponses: Record<string, ApiAnswer> = {
  "200": { description: "The file, with Content-Type, Content-Length, ETag, Cache-Control and Content-Disposition", content: { "application/octet-stream": binary() } },
  "206": { description: "The requested byte range", content: { "application/octet-stream": binary() } },
  "304": noBody("Not modified (If-None-Match)"),
  "404": err("No such file, or a private file without a key of its server"),
  "416": err("Range not satisfiable"),
  "451": err("Hidden after an abuse report (code file_hidden)"),
};

const headResponses: Record<string, ApiAnswer> = {
  "200": noBody("The headers a GET would answer, without the body"),
  "304": noBody("Not modified (If-None-Match)"),
  "404": noBody("No such file, or a private file without a key of its server"),
};

export const FILE_OPERATIONS: ApiOperation[] = [
  {
    method: "get",
    path: "/api/search",
    summary: "Search the key's server's files",
    keyed: true,
    query: SearchQuery,
    responses: { "200": json(SearchSuccess, "Matching files, newest first by default"), ...keyedErrors },
  },
  {
    method: "get",
    path: "/api/files/{id}",
    summary: "A file's record (player identifier, metadata…): needs a read key of the file's server, even for a public file",
    keyed: true,
    params: fileId,
    responses: { "200": json(FileSuccess, "The file"), ...keyedErrors, "404": err("No such file on the key's server (also the answer to no key or another server's key)") },
  },
  {
    method: "delete",
    path: "/api/files/{id}",
    summary: "Delete a file, its variants and its bytes; frees its quota (key with delete permission)",
    keyed: true,
    params: fileId,
    responses: { "200": json(DeleteSuccess, "Deleted"), ...keyedErrors, "404": err("No such file on the key's server") },
  },
  {
    method: "get",
    path: "/api/files/{id}/signed-url",
    summary: "A link that opens the file (private ones included) without a key until it expires: /f/…?expires=&sig=",
    keyed: true,
    params: fileId,
    query: SignedUrlQuery,
    responses: {
      "200": json(SignedUrlAnswer, "The signed URL"),
      ...keyedErrors,
      "400": err("expires_in out of range (code invalid_request, with min_expires_in and max_expires_in)"),
      "404": err("No such file on the key's server"),
    },
  },
  {
    method: "get",
    path: "/api/download",
    summary: "Download by path; public files need no key, private files a key of their server",
    keyed: false,
    access: "private files",
    query: downloadQuery,
    responses: { ...downloadResponses, "400": err("Missing or malformed file parameter") },
  },
  {
    method: "head",
    path: "/api/download",
    summary: "A download's headers (size, type, ETag) without its body",
    keyed: false,
    access: "private files",
    query: downloadQuery,
    responses: headResponses,
  },
  {
    method: "get",
    path: "/api/download/{id}",
    summary: "Download by file id; same rules as /api/download",
    keyed: false,
    access: "private files",
    params: fileId,
    responses: downloadResponses,
  },
  {
    method: "head",
    path: "/api/download/{id}",
    summary: "A download's headers without its body",
    keyed: false,
    access: "private files",
    params: fileId,
    responses: headResponses,
  },
  {
    method: "get",
    path: "/f/{server_id}/{category}/{filename}",
    summary:
      "The CDN path url/public_url point at: immutable caching, Range, ETag, optional ?w=&h=&format=&q= image transforms; a private file opens with a read key of its server or a signed URL (?expires=&sig=)",
    keyed: false,
    access: "private files",
    params: filePath,
    responses: downloadResponses,
  },
  {
    method: "head",
    path: "/f/{server_id}/{category}/{filename}",
    summary: "A file's headers without its body",
    keyed: false,
    access: "private files",
    params: filePath,
    responses: headResponses,
  },
];
