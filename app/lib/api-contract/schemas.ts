/**
 * The answers the script API shares across routes: the error envelope and the file record, and
 * the answers built on them. Objects are open (`looseObject`): clients must ignore fields they do
 * not know, and the answers carry aliases that known clients read.
 */
import { z } from "zod";
import { ERROR_CODES } from "~/lib/error-codes";
import { named } from "~/lib/api-contract/registry";

const obj = z.looseObject;
const int = () => z.int();
const uri = () => z.string().meta({ format: "uri" });
const dateTime = () => z.string().meta({ format: "date-time" });
const anyObject = () => obj({});

export const ErrorAnswer = named(
  "Error",
  obj({
    success: z.literal(false),
    status: z.literal("error"),
    error: z.string().describe("Human-readable message (scripts print it)"),
    message: z.string(),
    code: z.enum(ERROR_CODES),
    max_size_mb: z.number().optional(),
    file_size_mb: z.number().optional(),
    max_files: int().optional(),
    max_request_mb: z.number().optional(),
    retry_after: int().optional(),
    field: z.string().optional(),
    allowed_types: z.array(z.string()).describe("The server's allowed types as stored (415)").optional(),
    allowed_types_by_group: z
      .array(obj({ label: z.string(), types: z.array(z.string()) }))
      .describe("The allowed types by catalogue group: Images, Video, Audio, Documents, Game resources (415)")
      .optional(),
    detected_type: z.string().optional(),
    quota_bytes: int().optional(),
    used_bytes: int().optional(),
    request_id: z.string().optional(),
  }),
);

export const FileRecord = named(
  "File",
  obj({
    id: z.string().meta({ format: "uuid" }),
    file_id: z.string().meta({ format: "uuid" }),
    server_id: z.string(),
    filename: z.string().describe("Generated stored name"),
    original_filename: z.string().describe("The client's name, sanitised, for display only"),
    file_size: int(),
    size: int().optional(),
    mime_type: z.string().describe("Detected from the bytes"),
    category: z.string().regex(/^[a-z0-9_-]{1,40}$/),
    is_public: z.boolean(),
    url: uri(),
    public_url: uri(),
    link: uri(),
    path: z.string().describe("{server_id}/{category}/{filename}, for /api/download?file=").optional(),
    width: int().nullable().optional(),
    height: int().nullable().optional(),
    duration_ms: int().nullable().optional(),
    sha256: z.string().optional(),
    player_name: z.string().nullable().optional(),
    player_identifier: z.string().nullable().optional(),
    metadata: anyObject(),
    uploaded_at: dateTime(),
    expires_at: z.string().nullable().optional(),
    retention_exempt: z.boolean().describe("Kept forever: retention rules skip it (paid plans)").optional(),
    thumbhash: z.string().nullable().optional(),
    metadata_stripped: z
      .array(z.string())
      .describe(
        "Upload answers only: what was removed from the stored bytes — exif, xmp, iptc (images); the tag names of a video or audio file (location, artist…); a PDF's author, producer, title… and xmp. Empty when nothing was.",
      )
      .optional(),
    metadata_warning: z.string().describe("Upload answers only: personal metadata that could not be removed (an encrypted PDF)").optional(),
    retention_warning: z
      .string()
      .describe(
        "Upload answers only: the upload asked for retention_exempt and the plan does not allow it (free plan). The file was stored anyway " +
          "and follows the plan's retention (see expires_at); retention_exempt is false.",
      )
      .optional(),
  }),
);

const okEnvelope = { success: z.literal(true), status: z.literal("ok"), error: z.literal(false) };

export const UploadSuccess = named(
  "UploadSuccess",
  FileRecord.extend({
    ...okEnvelope,
    data: obj({ id: z.string(), url: z.string(), link: z.string(), public_url: z.string(), filename: z.string() }),
    attachments: z.array(obj({ url: z.string(), proxy_url: z.string() })),
    files: z.array(FileRecord),
  }),
  "The first stored file's fields at the top level, plus every alias known clients read.",
);

export const SearchSuccess = named(
  "SearchSuccess",
  obj({
    success: z.literal(true),
    status: z.literal("ok").optional(),
    error: z.literal(false).optional(),
    files: z.array(FileRecord),
    total: int().describe("Matching files, counted up to 10,000 (or just past the requested page)"),
    total_capped: z.boolean().describe("More files match than total says").optional(),
    limit: int(),
    offset: int(),
    page: int(),
    has_more: z.boolean().optional(),
  }),
);

export const FileSuccess = named("FileSuccess", FileRecord.extend({ success: z.literal(true), data: FileRecord }));

export const DeleteSuccess = named(
  "DeleteSuccess",
  obj({ success: z.literal(true), status: z.literal("ok").optional(), deleted: z.literal(true), id: z.string(), freed_bytes: int().optional() }),
);

export const PresignSuccess = named(
  "PresignSuccess",
  obj({
    success: z.literal(true),
    url: uri(),
    presignedUrl: uri(),
    upload_url: uri().optional(),
    upload: uri(),
    result: uri(),
    public_url: uri(),
    fileUrl: uri().optional(),
    category: z.string(),
    filename: z.string().describe("The stored name the file will have; its extension comes from mime_type when sent"),
    method: z.string().optional(),
    methods: z.array(z.string()).optional(),
    field: z.string().optional(),
    expires_in: int(),
    expires_at: dateTime(),
    data: obj({
      url: z.string().describe("The public URL the file will have"),
      public_url: z.string(),
      presignedUrl: z.string().describe("Where to send the file"),
      upload_url: z.string().optional(),
      expires_at: z.string().optional(),
    }),
  }),
  "url, presignedUrl, upload_url and upload are where to send the file; result, public_url, fileUrl, data.url and data.public_url are " +
    "the public URL the file will have, fixed now (LB Phone's GetPresignedUrl returns { upload, result }).",
);

export const WebhookMessage = named(
  "WebhookMessage",
  obj({
    id: z.string(),
    type: int(),
    content: z.string(),
    channel_id: z.string(),
    webhook_id: z.string().optional(),
    author: anyObject().optional(),
    embeds: z.array(z.unknown()),
    timestamp: z.string(),
    attachments: z.array(
      obj({
        id: z.string(),
        filename: z.string(),
        size: int(),
        content_type: z.string(),
        url: z.string(),
        proxy_url: z.string(),
        width: int().nullable(),
        height: int().nullable(),
      }),
    ),
  }),
  "A Discord message object, as Discord answers an executed webhook.",
);

export const Health = named(
  "Health",
  obj({
    status: z.enum(["ok", "degraded"]),
    db: obj({ ok: z.boolean().optional(), status: z.enum(["up", "down"]).optional() }).optional(),
  }),
);

export const binary = (description?: string) => (description ? z.string().meta({ format: "binary" }).describe(description) : z.string().meta({ format: "binary" }));
