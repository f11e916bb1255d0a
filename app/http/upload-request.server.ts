import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import type { FileRecord } from "../../db/schema";
import { DomainError, ERRORS } from "~/services/platform/domain-error.server";
import type { AppContext } from "~/services/app-context.server";
import { takeNodeBody } from "~/http/direct-actions.server";
import type { UploadNotes } from "~/services/files/file-views.server";
import { mergeFields, parseUploadFields, sanitiseCategory, sanitiseDisplayName, type UploadFields } from "~/services/uploads/upload-fields.server";
import { commitUploads, discardUploads, storeUpload, type StoredUpload, type UploadTarget } from "~/services/uploads/store-upload.server";

/** Files one request may carry (Discord allows 10 attachments; a little headroom). */
export const MAX_FILES_PER_REQUEST = 20;
const MAX_FIELDS = 100;
const MAX_FIELD_BYTES = 64 * 1024;
/** Room for multipart boundaries, part headers and every text field around the file bytes. */
const MULTIPART_OVERHEAD = 1024 * 1024 + MAX_FIELDS * MAX_FIELD_BYTES;
const JSON_OVERHEAD = 64 * 1024;
/**
 * A form body percent-encodes base64's "+", "/" and "=" to three characters each: about 1/32 of the
 * characters, so 6 % growth; the decoded file is held to the size limit all the same.
 */
const FORM_ENCODING_GROWTH = 1.1;
/** JSON, form and base64 keys clients put the file in. */
const BASE64_KEYS = ["base64", "file", "data", "image", "video", "audio", "content", "screenshot"];
/** A form body naming one of BASE64_KEYS; never bare base64, whose only "=" is trailing padding. */
const FORM_WITH_FILE = new RegExp(`(?:^|&)(?:${BASE64_KEYS.join("|")})=`);
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const DATA_URI = /^data:([^;,]*)((?:;[^;,]*)*?);base64,/i;

export type UploadBodyKind = "any" | "json" | "raw";

export interface ReceivedUpload {
  uploads: StoredUpload[];
  fields: UploadFields;
  /** Every text field of a multipart body as sent (e.g. a webhook's payload_json). */
  formFields: Record<string, string>;
}

export interface ReceiveOptions {
  kind?: UploadBodyKind;
  /** A multipart body without file parts is fine (Discord webhook messages without attachments). */
  allowNoFiles?: boolean;
  /** At most this many file parts (a presigned URL takes one); MAX_FILES_PER_REQUEST by default. */
  maxFiles?: number;
}

export function kindOf(contentType: string, allowed: UploadBodyKind): "multipart" | "text" | "raw" {
  if (allowed === "raw") return "raw";
  if (allowed === "json") return "text";
  if (contentType.startsWith("multipart/form-data")) return "multipart";
  if (/^(image|video|audio)\//.test(contentType) || contentType.startsWith("application/octet-stream") || contentType.startsWith("application/pdf")) return "raw";
  return "text";
}

/**
 * Largest body worth reading. The size limit is per file: a multipart body may carry up to
 * MAX_FILES_PER_REQUEST files each at the limit, plus framing and fields, and no more. Other bodies
 * hold one file (base64 is 4/3 of its bytes).
 */
export function bodyCap(kind: "multipart" | "text" | "raw", maxBytes: number, contentType = ""): number {
  const growth = contentType.startsWith("application/x-www-form-urlencoded") ? FORM_ENCODING_GROWTH : 1;
  if (kind === "text") return Math.ceil(((maxBytes * 4) / 3) * growth) + JSON_OVERHEAD;
  if (kind === "multipart") return MAX_FILES_PER_REQUEST * maxBytes + MULTIPART_OVERHEAD;
  return maxBytes;
}

function tooLarge(kind: "multipart" | "text" | "raw", maxBytes: number, receivedBytes: number): DomainError {
  if (kind === "multipart") return ERRORS.requestTooLarge(MAX_FILES_PER_REQUEST, maxBytes, bodyCap(kind, maxBytes));
  return ERRORS.fileTooLarge(maxBytes, kind === "text" ? Math.floor((receivedBytes * 3) / 4) : receivedBytes);
}

function requireBody(request: Request): ReadableStream<Uint8Array> {
  if (!request.body) throw new DomainError("missing_file", "No file provided");
  return request.body;
}

/**
 * Reads an upload request of any form clients send (multipart with any file field names, JSON with
 * base64 or a data URI, a raw data-URI text body, raw bytes) into stored uploads and fields.
 * Refuses an over-limit Content-Length before reading; streams files straight to the blob store.
 * On failure every blob it stored is deleted before it throws.
 */
export async function receiveUpload(ctx: AppContext, request: Request, target: UploadTarget, options: ReceiveOptions = {}): Promise<ReceivedUpload> {
  const contentType = (request.headers.get("content-type") ?? "").toLowerCase();
  const kind = kindOf(contentType, options.kind ?? "any");
  const declared = Number(request.headers.get("content-length") ?? NaN);
  const requestBytes = Number.isFinite(declared) ? declared : undefined;
  const cap = bodyCap(kind, target.maxBytes, contentType);
  // Nothing of the body is read; the host (unread-body.server.ts) closes the connection after the answer.
  if (requestBytes !== undefined && requestBytes > cap) throw tooLarge(kind, target.maxBytes, requestBytes);
  const query = parseUploadFields(Object.fromEntries(new URL(request.url).searchParams));
  // The boundary is case-sensitive (browsers send "----WebKitFormBoundaryAbC…"): hand busboy the header as sent.
  if (kind === "multipart") {
    return receiveMultipart(ctx, request, target, {
      query,
      contentType: request.headers.get("content-type") ?? "",
      cap,
      requestBytes,
      allowNoFiles: options.allowNoFiles ?? false,
      maxFiles: options.maxFiles ?? MAX_FILES_PER_REQUEST,
    });
  }
  // What is left of a refused body is the host's to discard (unread-body.server.ts); cancelling the
  // stream here would destroy the connection before the answer is out.
  const body = requireBody(request);
  if (kind === "raw") {
    const name = sanitiseDisplayName(request.headers.get("x-filename") ?? undefined);
    const upload = await storeUpload(ctx, target, body.values({ preventCancel: true }), {
      category: query.category,
      clientFilename: query.filename ?? name,
      requestBytes,
    });
    return { uploads: [upload], fields: query, formFields: {} };
  }
  return receiveText(ctx, body, target, { query, cap, contentType });
}

/** Receive, then commit: the whole upload request, all files or none. */
export async function handleUpload(ctx: AppContext, request: Request, target: UploadTarget, kind: UploadBodyKind = "any"): Promise<(FileRecord & UploadNotes)[]> {
  const { uploads, fields } = await receiveUpload(ctx, request, target, { kind });
  return finishUpload(ctx, target, uploads, fields);
}

/** Checks the claimed server and commits; every blob is deleted when it throws. */
export async function finishUpload(ctx: AppContext, target: UploadTarget, uploads: StoredUpload[], fields: UploadFields): Promise<(FileRecord & UploadNotes)[]> {
  if (uploads.length === 0) return [];
  if (fields.serverId && fields.serverId !== target.serverId) {
    await discardUploads(ctx, uploads);
    throw new DomainError("server_mismatch", "This API key does not belong to that server");
  }
  return commitUploads(ctx, target, uploads, fields);
}

interface MultipartOptions {
  query: UploadFields;
  contentType: string;
  cap: number;
  requestBytes: number | undefined;
  allowNoFiles: boolean;
  maxFiles: number;
}

function receiveMultipart(ctx: AppContext, request: Request, target: UploadTarget, { query, contentType, cap, requestBytes, allowNoFiles, maxFiles }: MultipartOptions): Promise<ReceivedUpload> {
  const source: Readable = takeNodeBody(request) ?? Readable.fromWeb(requireBody(request) as NodeReadableStream<Uint8Array>);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: { files: maxFiles, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: 200, headerPairs: 50 },
    });
  } catch {
    throw new DomainError("invalid_request", "Malformed multipart body");
  }
  const rawFields: Record<string, string> = {};
  const uploads: StoredUpload[] = [];
  let slots = 0;
  const pending: Promise<unknown>[] = [];
  let active: Readable | undefined;
  let failure: unknown;
  // Every byte of the body counts against the ceiling, file or not: padding, fields, framing.
  let received = 0;
  let settle!: { resolve(value: ReceivedUpload): void; reject(error: unknown): void };
  const done = new Promise<ReceivedUpload>((resolve, reject) => (settle = { resolve, reject }));

  const finish = async () => {
    await Promise.allSettled(pending);
    if (failure) {
      await discardUploads(ctx, uploads);
      settle.reject(failure);
      return;
    }
    let fields: UploadFields;
    try {
      fields = mergeFields(query, parseUploadFields(rawFields));
    } catch (error) {
      await discardUploads(ctx, uploads);
      settle.reject(error);
      return;
    }
    if (uploads.length === 0 && !allowNoFiles) {
      settle.reject(new DomainError("missing_file", "No file provided"));
      return;
    }
    settle.resolve({ uploads, fields, formFields: rawFields });
  };
  const fail = (error: unknown) => {
    if (failure) return;
    failure = error;
    active?.destroy();
    // Stop reading: the host discards or cuts the rest of the body once the answer is out.
    source.unpipe(parser);
    source.pause();
    void finish();
  };
  source.on("data", (chunk: Buffer) => {
    received += chunk.length;
    if (!failure && received > cap) fail(tooLarge("multipart", target.maxBytes, received));
  });

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) fail(new DomainError("invalid_request", `Field ${name} is too long`, { field: name }));
    else if (!(name in rawFields)) rawFields[name] = value;
  });
  parser.on("file", (_field, stream, info) => {
    if (failure) {
      stream.resume();
      return;
    }
    active = stream;
    const slot = slots++;
    const categoryNow = rawFields.category ?? rawFields.folder;
    const task = storeUpload(ctx, target, stream, {
      category: categoryNow !== undefined ? sanitiseCategory(categoryNow) : query.category,
      clientFilename: sanitiseDisplayName(info.filename),
      requestBytes,
    }).then(
      (upload) => {
        uploads[slot] = upload;
        if (failure) return discardUploads(ctx, [upload]);
      },
      (error) => fail(error),
    );
    pending.push(task);
  });
  parser.on("filesLimit", () =>
    fail(new DomainError("invalid_request", maxFiles === 1 ? "Send one file per request" : `At most ${maxFiles} files per request`, { max_files: maxFiles })),
  );
  parser.on("error", () => fail(new DomainError("invalid_request", "Malformed multipart body")));
  parser.on("close", () => {
    if (!failure) void finish();
  });
  source.on("error", (error) => {
    fail(new DomainError("invalid_request", "The upload was interrupted", { reason: error.message }));
    parser.destroy(error);
  });
  source.pipe(parser);
  return done;
}

async function readCapped(body: ReadableStream<Uint8Array>, cap: number, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of body.values({ preventCancel: true })) {
    length += chunk.length;
    if (length > cap) throw ERRORS.fileTooLarge(maxBytes, Math.floor((length * 3) / 4));
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function decodeBase64(value: string, maxBytes: number): { bytes: Buffer; mime?: string } {
  let text = value.trim();
  let mime: string | undefined;
  const match = DATA_URI.exec(text);
  if (match) {
    mime = match[1] || undefined;
    text = text.slice(match[0].length);
  } else if (text.startsWith("data:")) {
    throw new DomainError("invalid_request", "Only base64 data URIs are accepted");
  }
  text = text.replace(/\s+/g, "");
  if (!text || !BASE64.test(text)) throw new DomainError("invalid_request", "The file is not valid base64");
  const bytes = Buffer.from(text, "base64");
  if (bytes.length > maxBytes) throw ERRORS.fileTooLarge(maxBytes, bytes.length);
  return { bytes, mime };
}

interface TextOptions {
  query: UploadFields;
  cap: number;
  contentType: string;
}

/** The file and the other fields of a text body, whichever shape a client sent. */
export function parseTextBody(text: string, contentType: string): { payload: string; rest: Record<string, unknown> } {
  if (contentType.startsWith("application/x-www-form-urlencoded") || (!text.startsWith("data:") && FORM_WITH_FILE.test(text))) {
    const form = Object.fromEntries(new URLSearchParams(text));
    const key = BASE64_KEYS.find((k) => form[k]);
    if (!key) throw new DomainError("missing_file", `No file provided (send it as base64 or a data URI in the form field file or data)`);
    const { [key]: payload, ...rest } = form;
    // A client that builds the body by hand leaves base64's "+" unescaped, which decodes as a space.
    return { payload: payload!.replace(/ /g, "+"), rest };
  }
  if (text.startsWith("{") || text.startsWith('"')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new DomainError("invalid_request", "The body is not valid JSON");
    }
    if (typeof json === "string") return { payload: json, rest: {} };
    if (!json || typeof json !== "object" || Array.isArray(json)) throw new DomainError("invalid_request", "The body must be a JSON object or string");
    const object = json as Record<string, unknown>;
    const key = BASE64_KEYS.find((k) => typeof object[k] === "string" && object[k]);
    if (!key) throw new DomainError("missing_file", `No file provided (send it as base64 or a data URI in one of: ${BASE64_KEYS.slice(0, 3).join(", ")})`);
    const { [key]: payload, ...rest } = object;
    return { payload: payload as string, rest };
  }
  return { payload: text, rest: {} };
}

/**
 * A text body: JSON `{file|data|base64…: data URI or base64, fields…}` or a JSON string, an
 * x-www-form-urlencoded form with the same keys, or the bare data URI or base64 (any content type).
 */
async function receiveText(ctx: AppContext, body: ReadableStream<Uint8Array>, target: UploadTarget, { query, cap, contentType }: TextOptions): Promise<ReceivedUpload> {
  const text = (await readCapped(body, cap, target.maxBytes)).trim();
  if (!text) throw new DomainError("missing_file", "No file provided");
  const { payload, rest } = parseTextBody(text, contentType);
  const fields = mergeFields(query, parseUploadFields(rest));
  const { bytes } = decodeBase64(payload, target.maxBytes);
  const upload = await storeUpload(ctx, target, Readable.from([bytes]), { category: fields.category, clientFilename: fields.filename, requestBytes: bytes.length });
  return { uploads: [upload], fields, formFields: {} };
}
