/** Upload operations: multipart and the text forms, presigned URLs, resumable (tus) uploads and the Discord-compatible webhook. */
import { z } from "zod";
import { NAMED_CATEGORIES } from "~/lib/categories";
import { json, named, noBody, type ApiOperation } from "~/lib/api-contract/registry";
import { binary, PresignSuccess, UploadSuccess, WebhookMessage } from "~/lib/api-contract/schemas";
import { err, keyedErrors, uploadErrors } from "~/lib/api-contract/errors";

const obj = z.looseObject;
const trueFalse = () => z.enum(["true", "false"]);

export const UploadMultipart = named(
  "UploadMultipart",
  obj({
    file: binary().describe("The file: at least one file part. Any field name works: file, files[], image, video, recording…").optional(),
    server_id: z.string().describe("Optional; when sent it must be the key's server").optional(),
    category: z
      .string()
      .describe(`Open set, sanitised to [a-z0-9_-]{1,40} and stored as sent; default other. Named: ${NAMED_CATEGORIES.map((c) => c.name).join(", ")}`)
      .optional(),
    is_public: trueFalse().describe("Absent: the server's default (public for new servers)").optional(),
    player_name: z.string().describe("Who took it, for search and the portal").optional(),
    player_identifier: z.string().describe("e.g. license:…, for search").optional(),
    metadata: z.string().describe("A JSON object, at most 16 KB, searchable by containment").optional(),
    filename: z.string().describe("Display name, defaulting to the uploaded file's name; the stored name is generated").optional(),
    retention_exempt: trueFalse().describe("Keep forever (paid plans). On a plan without it the file is stored and the answer carries retention_warning").optional(),
  }),
  "Every file part is stored, whatever its field name (file, files[], files[0], file0, image, video, recording, ...): up to 20 files, " +
    "each within the size limit. All of them are stored or, on any error, none.",
);

export const UploadBase64 = named(
  "UploadBase64",
  obj({
    base64: z.string().optional(),
    file: z.string().optional(),
    data: z.string().optional(),
    image: z.string().optional(),
    filename: z.string().optional(),
    category: z.string().optional(),
    is_public: z.union([z.boolean(), z.string()]).optional(),
    player_name: z.string().optional(),
    player_identifier: z.string().optional(),
    metadata: z.union([obj({}), z.string()]).optional(),
    server_id: z.string().optional(),
    retention_exempt: z.union([z.boolean(), z.string()]).describe("As in multipart").optional(),
  }),
  "One of base64, file, data, image: a data URI or bare base64. Other fields as in multipart.",
);

export const UploadJson = named(
  "UploadJson",
  z.union([UploadBase64, z.string().describe("A JSON string holding a data URI or bare base64")]),
  "The base64 body, or a JSON string holding a data URI or bare base64.",
);

export const UploadForm = named(
  "UploadForm",
  obj({
    file: z.string().optional(),
    data: z.string().optional(),
    filename: z.string().optional(),
    category: z.string().optional(),
    is_public: trueFalse().optional(),
    player_name: z.string().optional(),
    player_identifier: z.string().optional(),
    metadata: z.string().describe("A JSON object, at most 16 KB").optional(),
    server_id: z.string().optional(),
  }),
  "The file as a data URI or bare base64 in file or data (also base64, image); a '+' that arrived as a space is read as '+'. " +
    "Other fields as in multipart.",
);

const uploadBody: ApiOperation["body"] = {
  required: true,
  content: {
    "multipart/form-data": UploadMultipart,
    "application/json": UploadJson,
    "application/x-www-form-urlencoded": UploadForm,
    "text/plain": z
      .string()
      .describe("A data URI (data:image/png;base64,...) or bare base64, for Lua PerformHttpRequest; also read from a body with no Content-Type"),
    "application/octet-stream": binary("Raw bytes; name and fields in the query string"),
  },
};
const uploaded = { "201": json(UploadSuccess, "Stored; every file of the request is in files[]") };

export const PresignQuery = obj({
  expires_in: z.int().describe("Seconds, default 300, max 3600").optional(),
  category: z.string().optional(),
  player_name: z.string().optional(),
  player_identifier: z.string().optional(),
  max_size_mb: z.number().optional(),
  mime_type: z
    .string()
    .describe("The type the client will send (image/webp, video/webm, or an extension): the promised name's extension. Also content_type, fileType")
    .optional(),
});

const token = obj({ token: z.string() });
const uploadId = obj({ upload_id: z.string() });
const presignedUsed = err("The URL was already used or has expired");

export const UPLOAD_OPERATIONS: ApiOperation[] = [
  {
    method: "post",
    path: "/api/upload",
    summary: "Upload one or more files",
    keyed: true,
    query: obj({ category: z.string().optional() }),
    body: uploadBody,
    responses: { ...uploaded, ...uploadErrors },
  },
  {
    method: "post",
    path: "/api/upload/base64",
    summary: "Upload a base64 or data-URI file in a JSON body",
    keyed: true,
    body: { required: true, content: { "application/json": UploadBase64 } },
    responses: { ...uploaded, ...uploadErrors },
  },
  {
    method: "get",
    path: "/api/upload/presign",
    summary: "Create a single-use upload URL that needs no key",
    keyed: true,
    query: PresignQuery,
    responses: { "200": json(PresignSuccess, "The upload URL"), ...keyedErrors },
  },
  {
    method: "post",
    path: "/api/upload/presign",
    summary: "Create a single-use upload URL (fields as JSON body or query)",
    keyed: true,
    responses: { "200": json(PresignSuccess, "The upload URL"), ...keyedErrors },
  },
  {
    method: "post",
    path: "/api/upload/presigned/{token}",
    summary: "Upload with a presigned URL (multipart, one file), once, with no key; the file lands at the presign answer's result",
    keyed: false,
    access: "in URL",
    params: token,
    body: uploadBody,
    responses: { ...uploaded, ...uploadErrors, "403": presignedUsed },
  },
  {
    method: "put",
    path: "/api/upload/presigned/{token}",
    summary: "Upload with a presigned URL (raw bytes), once, with no key; the file lands at the presign answer's result",
    keyed: false,
    access: "in URL",
    params: token,
    body: { required: true, content: { "application/octet-stream": binary() } },
    responses: { ...uploaded, ...uploadErrors, "403": presignedUsed },
  },
  {
    method: "post",
    path: "/api/uploads/tus",
    summary:
      "Create a resumable upload (tus 1.0: Tus-Resumable, Upload-Length, Upload-Metadata with filename, category, is_public, player_name, player_identifier, metadata); answers 201 with Location",
    keyed: true,
    responses: {
      "201": noBody("Created; PATCH the bytes to Location"),
      ...keyedErrors,
      "400": err("Missing Upload-Length or a bad header"),
      "413": err("Upload-Length over the server's file size limit (file_too_large) or the free quota (quota_exceeded)"),
      "415": err("The declared file name's type is not allowed on this server"),
    },
  },
  {
    method: "head",
    path: "/api/uploads/tus/{upload_id}",
    summary: "How far a resumable upload got (Upload-Offset, Upload-Length)",
    keyed: true,
    params: uploadId,
    responses: { "200": noBody("Upload-Offset tells where to continue"), ...keyedErrors, "404": err("No such upload for this key's server (or it expired)") },
  },
  {
    method: "patch",
    path: "/api/uploads/tus/{upload_id}",
    summary: "Continue a resumable upload from Upload-Offset; the last PATCH answers 200 with the stored file, like POST /api/upload",
    keyed: true,
    params: uploadId,
    body: { required: true, content: { "application/offset+octet-stream": binary() } },
    responses: {
      "200": json(UploadSuccess, "Complete: the stored file"),
      "204": noBody("Bytes kept; continue"),
      ...uploadErrors,
      "409": err("Upload-Offset does not match what the server has"),
    },
  },
  {
    method: "delete",
    path: "/api/uploads/tus/{upload_id}",
    summary: "Give up a resumable upload; its partial bytes are deleted",
    keyed: true,
    params: uploadId,
    responses: { "204": noBody("Deleted"), ...keyedErrors, "404": err("No such upload") },
  },
  {
    method: "post",
    path: "/api/webhooks/{server_id}/{secret}",
    summary: "Discord-webhook-compatible upload: change a Discord webhook URL to this one",
    keyed: false,
    access: "in URL",
    params: obj({ server_id: z.string(), secret: z.string() }),
    query: obj({ wait: z.boolean().optional() }),
    body: {
      content: {
        "multipart/form-data": named("WebhookMultipart", obj({}), "files[n], files[], file, file0 ... and optional payload_json"),
        "application/json": named("WebhookJson", obj({}), "content, username, embeds, ..."),
      },
    },
    responses: {
      "200": json(WebhookMessage, "A Discord-shaped message (with files, or with ?wait=true)"),
      "204": noBody("A message without files and without ?wait=true, as Discord answers; its content and embeds became a log entry in the discord dataset"),
      "400": err("Nothing to post"),
      "404": err("Unknown webhook"),
      "413": err("Too large or over quota"),
      "415": err("Type not allowed"),
      "429": err("Rate limited"),
      "500": err("Server error"),
      "503": err("The database is unavailable; retry after Retry-After seconds"),
    },
  },
];
