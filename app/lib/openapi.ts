/**
 * The OpenAPI 3.1 description of the script API, served at /api/openapi.json. Tests validate
 * every answer they get against it, so it stays true.
 */

import { NAMED_CATEGORIES } from "~/lib/categories";
import { ERROR_CODES } from "~/lib/error-codes";

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (type: string): Schema => ({ type: [type, "null"] });

const schemas: Record<string, Schema> = {
  Error: {
    type: "object",
    required: ["success", "status", "error", "message", "code"],
    properties: {
      success: { const: false },
      status: { const: "error" },
      error: { type: "string", description: "Human-readable message (scripts print it)" },
      message: { type: "string" },
      code: { enum: [...ERROR_CODES] },
      max_size_mb: { type: "number" },
      file_size_mb: { type: "number" },
      max_files: { type: "integer" },
      max_request_mb: { type: "number" },
      retry_after: { type: "integer" },
      field: { type: "string" },
      allowed_types: { type: "array", items: { type: "string" }, description: "The server's allowed types as stored (415)" },
      allowed_types_by_group: {
        type: "array",
        description: "The allowed types by catalogue group: Images, Video, Audio, Documents, Game resources (415)",
        items: { type: "object", required: ["label", "types"], properties: { label: { type: "string" }, types: { type: "array", items: { type: "string" } } } },
      },
      detected_type: { type: "string" },
      quota_bytes: { type: "integer" },
      used_bytes: { type: "integer" },
      request_id: { type: "string" },
    },
  },
  File: {
    type: "object",
    required: [
      "id",
      "file_id",
      "server_id",
      "filename",
      "original_filename",
      "file_size",
      "mime_type",
      "category",
      "is_public",
      "url",
      "public_url",
      "link",
      "uploaded_at",
      "metadata",
    ],
    properties: {
      id: { type: "string", format: "uuid" },
      file_id: { type: "string", format: "uuid" },
      server_id: { type: "string" },
      filename: { type: "string", description: "Generated stored name" },
      original_filename: { type: "string", description: "The client's name, sanitised, for display only" },
      file_size: { type: "integer" },
      size: { type: "integer" },
      mime_type: { type: "string", description: "Detected from the bytes" },
      category: { type: "string", pattern: "^[a-z0-9_-]{1,40}$" },
      is_public: { type: "boolean" },
      url: { type: "string", format: "uri" },
      public_url: { type: "string", format: "uri" },
      link: { type: "string", format: "uri" },
      path: { type: "string", description: "{server_id}/{category}/{filename}, for /api/download?file=" },
      width: nullable("integer"),
      height: nullable("integer"),
      duration_ms: nullable("integer"),
      sha256: { type: "string" },
      player_name: nullable("string"),
      player_identifier: nullable("string"),
      metadata: { type: "object" },
      uploaded_at: { type: "string", format: "date-time" },
      expires_at: nullable("string"),
      retention_exempt: { type: "boolean", description: "Kept forever: retention rules skip it (paid plans)" },
      thumbhash: nullable("string"),
      metadata_stripped: {
        type: "array",
        items: { type: "string" },
        description:
          "Upload answers only: what was removed from the stored bytes — exif, xmp, iptc (images); the tag names of a video or audio file (location, artist…); a PDF's author, producer, title… and xmp. Empty when nothing was.",
      },
      metadata_warning: { type: "string", description: "Upload answers only: personal metadata that could not be removed (an encrypted PDF)" },
      retention_warning: {
        type: "string",
        description:
          "Upload answers only: the upload asked for retention_exempt and the plan does not allow it (free plan). The file was stored anyway " +
          "and follows the plan's retention (see expires_at); retention_exempt is false.",
      },
    },
  },
  UploadSuccess: {
    description: "The first stored file's fields at the top level, plus every alias known clients read.",
    allOf: [
      ref("File"),
      {
        type: "object",
        required: ["success", "status", "error", "data", "attachments", "files"],
        properties: {
          success: { const: true },
          status: { const: "ok" },
          error: { const: false },
          data: {
            type: "object",
            required: ["id", "url", "link", "public_url", "filename"],
            properties: {
              id: { type: "string" },
              url: { type: "string" },
              link: { type: "string" },
              public_url: { type: "string" },
              filename: { type: "string" },
            },
          },
          attachments: {
            type: "array",
            items: { type: "object", required: ["url", "proxy_url"], properties: { url: { type: "string" }, proxy_url: { type: "string" } } },
          },
          files: { type: "array", items: ref("File") },
        },
      },
    ],
  },
  SearchSuccess: {
    type: "object",
    required: ["success", "files", "total", "limit", "offset", "page"],
    properties: {
      success: { const: true },
      status: { const: "ok" },
      error: { const: false },
      files: { type: "array", items: ref("File") },
      total: { type: "integer", description: "Matching files, counted up to 10,000 (or just past the requested page)" },
      total_capped: { type: "boolean", description: "More files match than total says" },
      limit: { type: "integer" },
      offset: { type: "integer" },
      page: { type: "integer" },
      has_more: { type: "boolean" },
    },
  },
  FileSuccess: {
    allOf: [
      ref("File"),
      { type: "object", required: ["success", "data"], properties: { success: { const: true }, data: ref("File") } },
    ],
  },
  DeleteSuccess: {
    type: "object",
    required: ["success", "deleted", "id"],
    properties: { success: { const: true }, status: { const: "ok" }, deleted: { const: true }, id: { type: "string" }, freed_bytes: { type: "integer" } },
  },
  PresignSuccess: {
    type: "object",
    description:
      "url, presignedUrl, upload_url and upload are where to send the file; result, public_url, fileUrl, data.url and data.public_url are " +
      "the public URL the file will have, fixed now (LB Phone's GetPresignedUrl returns { upload, result }).",
    required: ["success", "url", "presignedUrl", "upload", "result", "public_url", "category", "filename", "expires_at", "expires_in", "data"],
    properties: {
      success: { const: true },
      url: { type: "string", format: "uri" },
      presignedUrl: { type: "string", format: "uri" },
      upload_url: { type: "string", format: "uri" },
      upload: { type: "string", format: "uri" },
      result: { type: "string", format: "uri" },
      public_url: { type: "string", format: "uri" },
      fileUrl: { type: "string", format: "uri" },
      category: { type: "string" },
      filename: { type: "string", description: "The stored name the file will have; its extension comes from mime_type when sent" },
      method: { type: "string" },
      methods: { type: "array", items: { type: "string" } },
      field: { type: "string" },
      expires_in: { type: "integer" },
      expires_at: { type: "string", format: "date-time" },
      data: {
        type: "object",
        required: ["url", "public_url", "presignedUrl"],
        properties: {
          url: { type: "string", description: "The public URL the file will have" },
          public_url: { type: "string" },
          presignedUrl: { type: "string", description: "Where to send the file" },
          upload_url: { type: "string" },
          expires_at: { type: "string" },
        },
      },
    },
  },
  WebhookMessage: {
    type: "object",
    description: "A Discord message object, as Discord answers an executed webhook.",
    required: ["id", "type", "content", "channel_id", "attachments", "embeds", "timestamp"],
    properties: {
      id: { type: "string" },
      type: { type: "integer" },
      content: { type: "string" },
      channel_id: { type: "string" },
      webhook_id: { type: "string" },
      author: { type: "object" },
      embeds: { type: "array" },
      timestamp: { type: "string" },
      attachments: {
        type: "array",
        items: {
          type: "object",
          required: ["id", "filename", "size", "content_type", "url", "proxy_url", "width", "height"],
          properties: {
            id: { type: "string" },
            filename: { type: "string" },
            size: { type: "integer" },
            content_type: { type: "string" },
            url: { type: "string" },
            proxy_url: { type: "string" },
            width: nullable("integer"),
            height: nullable("integer"),
          },
        },
      },
    },
  },
  Health: {
    type: "object",
    required: ["status"],
    properties: {
      status: { enum: ["ok", "degraded"] },
      db: { type: "object", properties: { ok: { type: "boolean" }, status: { enum: ["up", "down"] } } },
    },
  },
};

const json = (schema: Schema, description: string) => ({ description, content: { "application/json": { schema } } });
const err = (description: string) => json(ref("Error"), description);
const binary = (description: string) => ({ description, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } });

const caseSchema = {
  type: "object",
  properties: {
    success: { type: "boolean" },
    added: { type: "integer" },
    case: {
      type: "object",
      properties: {
        id: { type: "string" },
        number: { type: "string" },
        title: { type: "string" },
        notes: { type: "string" },
        status: { type: "string", enum: ["open", "closed"] },
        created_at: { type: "string", format: "date-time" },
        closed_at: nullable("string"),
        files: { type: "array", items: { type: "object" } },
      },
    },
  },
};

/** The log ingest endpoints share one description: the senders differ only in path. */
function logIngest(summary: string) {
  return {
    post: {
      summary,
      security: keyed,
      parameters: [{ name: "X-Fivemanage-Dataset", in: "header", required: false, schema: { type: "string" } }],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: ["object", "array"],
              description: "Entries: message (required, ≤ 32 KB), level, resource, metadata (object ≤ 16 KB), timestamp (ISO or epoch s/ms/ns), dataset",
            },
          },
        },
      },
      responses: {
        "200": json({ type: "object", properties: { success: { type: "boolean" }, accepted: { type: "integer" }, datasets: { type: "array", items: { type: "string" } } } }, "Stored"),
        ...keyedErrors,
        "400": err("An entry is not valid (the error names it)"),
        "413": err("More than 1,000 entries or 2 MB"),
        "429": err("Rate limited, or the plan's monthly log volume is used"),
      },
    },
  };
}

const keyed = [{ ApiKeyHeader: [] }, { BearerKey: [] }, { ApiKeyQuery: [] }, { ApiKeyQueryApi: [] }, { ApiKeyQueryKey: [] }, { ApiKeyQueryToken: [] }];
const keyedErrors = {
  "400": err("Missing or invalid fields"),
  "401": err("Missing, invalid, revoked or expired API key"),
  "403": err("The key lacks the permission, belongs to another server, or the server is not active"),
  "429": err("Rate limited; see Retry-After"),
  "500": err("Server error"),
  "503": err(
    "The database, file storage or malware scanner is unavailable (code database_unavailable, storage_unavailable or scanner_unavailable); nothing was kept, retry after Retry-After seconds",
  ),
};
const uploadErrors = {
  ...keyedErrors,
  "413": err(
    "A file over the size limit, which applies to each file (code file_too_large, with max_size_mb and file_size_mb); a multipart body larger " +
      "than max_files (20) files at that limit plus framing (code request_too_large, with max_files, max_size_mb and max_request_mb); or over " +
      "the account's storage quota (code quota_exceeded). Any of them stores none of the request's files.",
  ),
  "415": err(
    "The file's type, detected from its bytes, is not allowed on this server (code unsupported_file_type, with detected_type, allowed_types " +
      "and allowed_types_by_group). New servers allow every image (jpg, png, gif, webp, avif, heic), video (mp4, webm, mov, avi, mkv) and " +
      "audio (mp3, ogg/opus, weba = audio-only WebM, wav, m4a, aac) type and pdf; txt and game resources (zip, 7z, rar, ytd, ydr, " +
      "yft, ybn, ymap, ytyp, …) are opt-in.",
  ),
  "422": err(
    "An image whose data is truncated or corrupt (code image_corrupt, with format and problem, e.g. \"Corrupt JPEG data: premature end of " +
      "data segment\"), or a file the malware scanner (when the instance runs one) matched (code file_infected, with signature); nothing was kept",
  ),
  "507": err("File storage is full (code insufficient_storage); nothing was kept, retry after Retry-After seconds"),
};

const uploadFields: Schema = {
  type: "object",
  description:
    "Every file part is stored, whatever its field name (file, files[], files[0], file0, image, video, recording, ...): up to 20 files, " +
    "each within the size limit. All of them are stored or, on any error, none.",
  properties: {
    file: { type: "string", format: "binary" },
    server_id: { type: "string", description: "Optional; when sent it must be the key's server" },
    category: {
      type: "string",
      description: `Open set, sanitised to [a-z0-9_-]{1,40} and stored as sent; default other. Named: ${NAMED_CATEGORIES.map((c) => c.name).join(", ")}`,
    },
    is_public: { enum: ["true", "false"], description: "Absent: the server's default" },
    player_name: { type: "string" },
    player_identifier: { type: "string" },
    metadata: { type: "string", description: "A JSON object, at most 16 KB" },
    filename: { type: "string", description: "Display name; the stored name is generated" },
    retention_exempt: { enum: ["true", "false"], description: "Keep forever (paid plans). On a plan without it the file is stored and the answer carries retention_warning" },
  },
};
const base64Body: Schema = {
  type: "object",
  description: "One of base64, file, data, image: a data URI or bare base64. Other fields as in multipart.",
  properties: {
    base64: { type: "string" },
    file: { type: "string" },
    data: { type: "string" },
    image: { type: "string" },
    filename: { type: "string" },
    category: { type: "string" },
    is_public: { type: ["boolean", "string"] },
    player_name: { type: "string" },
    player_identifier: { type: "string" },
    metadata: { type: ["object", "string"] },
    server_id: { type: "string" },
    retention_exempt: { type: ["boolean", "string"], description: "As in multipart" },
  },
};
const formBody: Schema = {
  type: "object",
  description:
    "The file as a data URI or bare base64 in file or data (also base64, image); a '+' that arrived as a space is read as '+'. " +
    "Other fields as in multipart.",
  properties: {
    file: { type: "string" },
    data: { type: "string" },
    filename: { type: "string" },
    category: { type: "string" },
    is_public: { enum: ["true", "false"] },
    player_name: { type: "string" },
    player_identifier: { type: "string" },
    metadata: { type: "string", description: "A JSON object, at most 16 KB" },
    server_id: { type: "string" },
  },
};
const uploadBody = {
  required: true,
  content: {
    "multipart/form-data": { schema: uploadFields },
    "application/json": { schema: { oneOf: [base64Body, { type: "string", description: "A JSON string holding a data URI or bare base64" }] } },
    "application/x-www-form-urlencoded": { schema: formBody },
    "text/plain": {
      schema: {
        type: "string",
        description: "A data URI (data:image/png;base64,...) or bare base64, for Lua PerformHttpRequest; also read from a body with no Content-Type",
      },
    },
    "application/octet-stream": { schema: { type: "string", format: "binary", description: "Raw bytes; name and fields in the query string" } },
  },
};
const upload201 = { "201": json(ref("UploadSuccess"), "Stored; every file of the request is in files[]") };

const searchParams = [
  ["category", "string", "Exact category"],
  ["player_name", "string", "Case-insensitive substring"],
  ["player_identifier", "string", "Exact identifier"],
  ["filename", "string", "Case-insensitive substring of the stored or original name"],
  ["from_date", "string", "YYYY-MM-DD or ISO 8601, inclusive"],
  ["to_date", "string", "YYYY-MM-DD or ISO 8601, inclusive"],
  ["metadata", "string", "A JSON object the file's metadata must contain"],
  ["sort", "string", "desc (default, newest first) or asc"],
  ["limit", "integer", "Default 50 with offset paging, 20 with page paging; max 100"],
  ["offset", "integer", "Default 0"],
  ["page", "integer", "1-based; switches to page paging"],
  ["server_id", "string", "Optional; must be the key's server"],
].map(([name, type, description]) => ({ name, in: "query", required: false, description, schema: { type } }));

const downloadResponses = {
  "200": binary("The file, with Content-Type, Content-Length, ETag, Cache-Control and Content-Disposition"),
  "206": binary("The requested byte range"),
  "304": { description: "Not modified (If-None-Match)" },
  "404": err("No such file, or a private file without a key of its server"),
  "416": err("Range not satisfiable"),
};

export function buildOpenApiDocument(serverUrl: string, version: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Stash script API",
      version,
      description:
        "Uploads, search and downloads for game-server scripts. Send the API key as x-api-key, Authorization: Bearer <key>, " +
        "Authorization: <key>, Authorization: Key <key>, or in the query as ?apiKey=, ?api_key=, ?api=, ?key= or ?token=. Every answer is JSON (files excepted); errors carry " +
        "success=false, status=error, error, message and a machine-readable code. CORS is open to any origin.",
    },
    servers: [{ url: serverUrl }],
    components: {
      schemas,
      securitySchemes: {
        ApiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key" },
        BearerKey: { type: "http", scheme: "bearer" },
        ApiKeyQuery: { type: "apiKey", in: "query", name: "apiKey", description: "Also api_key" },
        ApiKeyQueryApi: { type: "apiKey", in: "query", name: "api", description: "LB Phone's custom-upload URL template" },
        ApiKeyQueryKey: { type: "apiKey", in: "query", name: "key" },
        ApiKeyQueryToken: { type: "apiKey", in: "query", name: "token" },
      },
    },
    paths: {
      "/api/upload": {
        post: {
          summary: "Upload one or more files",
          security: keyed,
          parameters: [{ name: "category", in: "query", required: false, schema: { type: "string" } }],
          requestBody: uploadBody,
          responses: { ...upload201, ...uploadErrors },
        },
      },
      "/api/upload/base64": {
        post: {
          summary: "Upload a base64 or data-URI file in a JSON body",
          security: keyed,
          requestBody: { required: true, content: { "application/json": { schema: base64Body } } },
          responses: { ...upload201, ...uploadErrors },
        },
      },
      "/api/upload/presign": {
        get: {
          summary: "Create a single-use upload URL that needs no key",
          security: keyed,
          parameters: [
            { name: "expires_in", in: "query", required: false, description: "Seconds, default 300, max 3600", schema: { type: "integer" } },
            { name: "category", in: "query", required: false, schema: { type: "string" } },
            { name: "player_name", in: "query", required: false, schema: { type: "string" } },
            { name: "player_identifier", in: "query", required: false, schema: { type: "string" } },
            { name: "max_size_mb", in: "query", required: false, schema: { type: "number" } },
            {
              name: "mime_type",
              in: "query",
              required: false,
              description: "The type the client will send (image/webp, video/webm, or an extension): the promised name's extension. Also content_type, fileType",
              schema: { type: "string" },
            },
          ],
          responses: { "200": json(ref("PresignSuccess"), "The upload URL"), ...keyedErrors },
        },
        post: {
          summary: "Create a single-use upload URL (fields as JSON body or query)",
          security: keyed,
          responses: { "200": json(ref("PresignSuccess"), "The upload URL"), ...keyedErrors },
        },
      },
      "/api/upload/presigned/{token}": {
        post: {
          summary: "Upload with a presigned URL (multipart, one file), once, with no key; the file lands at the presign answer's result",
          parameters: [{ name: "token", in: "path", required: true, schema: { type: "string" } }],
          requestBody: uploadBody,
          responses: { ...upload201, ...uploadErrors, "403": err("The URL was already used or has expired") },
        },
        put: {
          summary: "Upload with a presigned URL (raw bytes), once, with no key; the file lands at the presign answer's result",
          parameters: [{ name: "token", in: "path", required: true, schema: { type: "string" } }],
          requestBody: { required: true, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
          responses: { ...upload201, ...uploadErrors, "403": err("The URL was already used or has expired") },
        },
      },
      "/api/uploads/tus": {
        post: {
          summary:
            "Create a resumable upload (tus 1.0: Tus-Resumable, Upload-Length, Upload-Metadata with filename, category, is_public, player_name, player_identifier, metadata); answers 201 with Location",
          security: keyed,
          responses: {
            "201": { description: "Created; PATCH the bytes to Location" },
            ...keyedErrors,
            "400": err("Missing Upload-Length or a bad header"),
            "413": err("Upload-Length over the server's file size limit (file_too_large) or the free quota (quota_exceeded)"),
            "415": err("The declared file name's type is not allowed on this server"),
          },
        },
      },
      "/api/uploads/tus/{upload_id}": {
        head: {
          summary: "How far a resumable upload got (Upload-Offset, Upload-Length)",
          security: keyed,
          parameters: [{ name: "upload_id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "Upload-Offset tells where to continue" }, ...keyedErrors, "404": err("No such upload for this key's server (or it expired)") },
        },
        patch: {
          summary: "Continue a resumable upload from Upload-Offset; the last PATCH answers 200 with the stored file, like POST /api/upload",
          security: keyed,
          parameters: [{ name: "upload_id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: { required: true, content: { "application/offset+octet-stream": { schema: { type: "string", format: "binary" } } } },
          responses: { "200": json(ref("UploadSuccess"), "Complete: the stored file"), "204": { description: "Bytes kept; continue" }, ...uploadErrors, "409": err("Upload-Offset does not match what the server has") },
        },
        delete: {
          summary: "Give up a resumable upload; its partial bytes are deleted",
          security: keyed,
          parameters: [{ name: "upload_id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "204": { description: "Deleted" }, ...keyedErrors, "404": err("No such upload") },
        },
      },
      "/api/search": {
        get: {
          summary: "Search the key's server's files",
          security: keyed,
          parameters: searchParams,
          responses: { "200": json(ref("SearchSuccess"), "Matching files, newest first by default"), ...keyedErrors },
        },
      },
      "/api/files/{id}": {
        get: {
          summary: "A file's record (player identifier, metadata…): needs a read key of the file's server, even for a public file",
          security: keyed,
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": json(ref("FileSuccess"), "The file"), ...keyedErrors, "404": err("No such file on the key's server (also the answer to no key or another server's key)") },
        },
        delete: {
          summary: "Delete a file, its variants and its bytes; frees its quota (key with delete permission)",
          security: keyed,
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": json(ref("DeleteSuccess"), "Deleted"), ...keyedErrors, "404": err("No such file on the key's server") },
        },
      },
      "/api/files/{id}/signed-url": {
        get: {
          summary: "A link that opens the file (private ones included) without a key until it expires: /f/…?expires=&sig=",
          security: keyed,
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "expires_in", in: "query", required: false, description: "Seconds, 60 to 604800 (7 days); default 3600", schema: { type: "integer", minimum: 60, maximum: 604800 } },
          ],
          responses: {
            "200": json(
              {
                type: "object",
                properties: { id: { type: "string" }, url: { type: "string", format: "uri" }, expires_at: { type: "string", format: "date-time" }, expires_in: { type: "integer" } },
              },
              "The signed URL",
            ),
            ...keyedErrors,
            "400": err("expires_in out of range (code invalid_request, with min_expires_in and max_expires_in)"),
            "404": err("No such file on the key's server"),
          },
        },
      },
      "/api/cases": {
        post: {
          summary: "Open an evidence case (or answer the one with that number) and file uploads into it; files in an open case are kept whatever the retention rules say and cannot be deleted",
          security: keyed,
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["number"],
                  properties: {
                    number: { type: "string", description: "1–40 letters, digits, _, . or -; unique per server" },
                    title: { type: "string", maxLength: 200 },
                    notes: { type: "string", maxLength: 5000 },
                    file_ids: { type: "array", items: { type: "string" } },
                  },
                },
              },
            },
          },
          responses: { "201": json(caseSchema, "The case, opened now"), "200": json(caseSchema, "The case that already had this number"), ...keyedErrors, "400": err("Bad number, title or notes, or a closed case") },
        },
      },
      "/api/cases/verify": {
        post: {
          summary: "Whether an exported case's manifest.json is exactly what Stash signed (no key needed)",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { type: "object", required: ["manifest", "signature"], properties: { manifest: { type: "string" }, signature: { type: "string" } } } } },
          },
          responses: { "200": json({ type: "object", properties: { valid: { type: "boolean" }, message: { type: "string" } } }, "The verdict"), "400": err("manifest or signature missing") },
        },
      },
      "/api/cases/{number}": {
        get: {
          summary: "A case of the key's server and its files",
          security: keyed,
          parameters: [{ name: "number", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": json(caseSchema, "The case with files[]"), ...keyedErrors, "404": err("No such case on the key's server") },
        },
      },
      "/api/cases/{number}/export": {
        get: {
          summary: "The case as a zip: files/, manifest.json (names, SHA-256, upload time and key, who filed each and when, metadata) and manifest.sig",
          security: keyed,
          parameters: [{ name: "number", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "application/zip" }, ...keyedErrors, "404": err("No such case on the key's server") },
        },
      },
      "/api/cases/{number}/{action}": {
        post: {
          summary: "files {file_ids} adds files (upload permission); close and reopen (delete permission) decide whether its files may be deleted",
          security: keyed,
          parameters: [
            { name: "number", in: "path", required: true, schema: { type: "string" } },
            { name: "action", in: "path", required: true, schema: { type: "string", enum: ["files", "close", "reopen"] } },
          ],
          responses: { "200": json(caseSchema, "The case"), ...keyedErrors, "400": err("No file_ids, or a closed case"), "404": err("No such case on the key's server") },
        },
      },
      "/api/logs": logIngest("Send log entries: one object, an array or {logs: [...]} (Stash's and Fivemanage's shape); the dataset is each entry's dataset, else X-Fivemanage-Dataset, else default"),
      "/api/logs/batch": logIngest("Fivemanage's batch endpoint (ox_lib's fivemanage logger): an array of entries"),
      "/api/v3/logs": logIngest("Fivemanage v3: an array of entries"),
      "/v1/logs": logIngest("Fivemerr's log endpoint: one entry"),
      "/loki/api/v1/push": {
        post: {
          summary: "Grafana Loki's JSON push (ox_lib's loki logger, Promtail): {streams: [{stream: {labels}, values: [[ns, line]]}]}; the key as Basic password or bearer token",
          security: keyed,
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["streams"], properties: { streams: { type: "array", items: { type: "object" } } } } } } },
          responses: { "204": { description: "Stored, as Loki answers" }, ...keyedErrors, "400": err("Not a Loki push"), "413": err("More than 1,000 entries or 2 MB"), "429": err("Rate limited, or the plan's monthly log volume is used") },
        },
      },
      "/api/logs/search": {
        get: {
          summary: "Search the key's server's log entries (read permission), newest first, keyset-paged",
          security: keyed,
          parameters: ["dataset", "level", "resource", "q", "from", "to", "meta", "limit", "cursor"].map((name) => ({ name, in: "query", required: false, schema: { type: "string" } })),
          responses: {
            "200": json({ type: "object", properties: { success: { type: "boolean" }, data: { type: "array", items: { type: "object" } }, next_cursor: { type: ["string", "null"] } } }, "A page of entries"),
            ...keyedErrors,
            "400": err("A filter is not valid"),
          },
        },
      },
      "/api/download": {
        get: {
          summary: "Download by path; public files need no key, private files a key of their server",
          parameters: [{ name: "file", in: "query", required: true, description: "{server_id}/{category}/{filename}", schema: { type: "string" } }],
          responses: { ...downloadResponses, "400": err("Missing or malformed file parameter") },
        },
      },
      "/api/download/{id}": {
        get: {
          summary: "Download by file id; same rules as /api/download",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: downloadResponses,
        },
      },
      "/f/{server_id}/{category}/{filename}": {
        get: {
          summary:
            "The CDN path url/public_url point at: immutable caching, Range, ETag, optional ?w=&h=&format=&q= image transforms; a private file opens with a read key of its server or a signed URL (?expires=&sig=)",
          parameters: ["server_id", "category", "filename"].map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
          responses: downloadResponses,
        },
      },
      "/api/webhooks/{server_id}/{secret}": {
        post: {
          summary: "Discord-webhook-compatible upload: change a Discord webhook URL to this one",
          parameters: [
            { name: "server_id", in: "path", required: true, schema: { type: "string" } },
            { name: "secret", in: "path", required: true, schema: { type: "string" } },
            { name: "wait", in: "query", required: false, schema: { type: "boolean" } },
          ],
          requestBody: {
            content: {
              "multipart/form-data": { schema: { type: "object", description: "files[n], files[], file, file0 ... and optional payload_json" } },
              "application/json": { schema: { type: "object", description: "content, username, embeds, ..." } },
            },
          },
          responses: {
            "200": json(ref("WebhookMessage"), "A Discord-shaped message (with files, or with ?wait=true)"),
            "204": { description: "A message without files and without ?wait=true, as Discord answers; its content and embeds became a log entry in the discord dataset" },
            "400": err("Nothing to post"),
            "404": err("Unknown webhook"),
            "413": err("Too large or over quota"),
            "415": err("Type not allowed"),
            "429": err("Rate limited"),
            "500": err("Server error"),
            "503": err("The database is unavailable; retry after Retry-After seconds"),
          },
        },
      },
      "/api/health": {
        get: { summary: "Liveness and dependencies", responses: { "200": json(ref("Health"), "Healthy"), "503": json(ref("Health"), "Degraded") } },
      },
      "/api/openapi.json": { get: { summary: "This document", responses: { "200": { description: "OpenAPI 3.1 document" } } } },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
