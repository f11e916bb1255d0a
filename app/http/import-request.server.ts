import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import type { AppContext } from "~/services/app-context.server";
import { DomainError, ERRORS } from "~/services/platform/domain-error.server";
import { takeNodeBody } from "~/http/direct-actions.server";
import type { UploadedSourceFile } from "~/services/imports/create-import.server";

/** A JSON body (a list of up to 100,000 URLs) is read whole up to this size. */
const MAX_JSON_BYTES = 32 * 1024 * 1024;
/** An uploaded or pasted list of URLs is read as text up to this size. */
const MAX_LIST_BYTES = 32 * 1024 * 1024;
const MAX_FIELDS = 20;

export interface ImportRequest {
  fields: Record<string, unknown>;
  file?: UploadedSourceFile & { text?: string };
  /** Removes the uploaded file from this machine's disk; call when the import was created or refused. */
  cleanup(): Promise<void>;
}

/**
 * An import request as its fields and its one uploaded file: JSON, or multipart with the export,
 * archive or list streamed to a temporary file (refused past IMPORT_MAX_ARCHIVE_MB).
 */
export async function readImportRequest(ctx: AppContext, request: Request): Promise<ImportRequest> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) return readMultipart(ctx, request);
  const raw = await readCappedText(request, MAX_JSON_BYTES);
  let fields: unknown = {};
  if (raw.trim()) {
    if (type.includes("application/x-www-form-urlencoded")) fields = Object.fromEntries(new URLSearchParams(raw));
    else {
      try {
        fields = JSON.parse(raw);
      } catch {
        throw new DomainError("invalid_request", "The body must be JSON or multipart/form-data");
      }
    }
  }
  if (!fields || typeof fields !== "object" || Array.isArray(fields)) throw new DomainError("invalid_request", "The body must be a JSON object");
  return { fields: fields as Record<string, unknown>, cleanup: async () => undefined };
}

const bodyTooLarge = () => new DomainError("invalid_request", "The request body is too large; send a file as multipart/form-data");

/** The body as text, refused once past `cap` bytes (declared or read), so a chunked body cannot grow without bound. */
async function readCappedText(request: Request, cap: number): Promise<string> {
  if (Number(request.headers.get("content-length") ?? 0) > cap) throw bodyTooLarge();
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body.values({ preventCancel: true })) {
    size += chunk.length;
    if (size > cap) throw bodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function readMultipart(ctx: AppContext, request: Request): Promise<ImportRequest> {
  const maxBytes = ctx.config.IMPORT_MAX_ARCHIVE_MB * 1024 * 1024;
  const dir = path.join(ctx.config.dataDir, "imports-tmp");
  const target = path.join(dir, `upload-${randomBytes(8).toString("hex")}`);
  const cleanup = () => fs.promises.rm(target, { force: true });
  const source: Readable = takeNodeBody(request) ?? Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  const fields: Record<string, string> = {};
  let file: (UploadedSourceFile & { text?: string }) | undefined;
  let writing: Promise<void> | null = null;
  return new Promise<ImportRequest>((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      source.unpipe();
      source.pause();
      void cleanup().finally(() => reject(error));
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { "content-type": request.headers.get("content-type") ?? "" }, defParamCharset: "utf8", limits: { files: 1, fields: MAX_FIELDS, fieldSize: MAX_LIST_BYTES } });
    } catch {
      return reject(new DomainError("invalid_request", "Malformed multipart body"));
    }
    let fieldBytes = 0;
    parser.on("field", (name, value, info) => {
      fieldBytes += value.length;
      // One field may hold a list of URLs; together they may not hold much more.
      if (info.valueTruncated || fieldBytes > MAX_LIST_BYTES + 64 * 1024) return fail(new DomainError("invalid_request", `Field ${name} is too long`, { field: name }));
      if (!(name in fields)) fields[name] = value;
    });
    parser.on("file", (_name, stream, info) => {
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (size > maxBytes) return callback(ERRORS.fileTooLarge(maxBytes, size));
          callback(null, chunk);
        },
      });
      file = { path: target, filename: info.filename };
      writing = fs.promises
        .mkdir(dir, { recursive: true })
        .then(() => pipeline(stream, counter, fs.createWriteStream(target)))
        .catch((error) => {
          stream.resume();
          fail(error instanceof DomainError ? error : new DomainError("invalid_request", "The upload was interrupted"));
        });
    });
    parser.on("filesLimit", () => fail(new DomainError("invalid_request", "Send one file per import")));
    parser.on("error", () => fail(new DomainError("invalid_request", "Malformed multipart body")));
    parser.on("close", async () => {
      await writing;
      if (failed) return;
      if (file && String(fields.source) === "urls" && !fields.urls) {
        const { size } = await fs.promises.stat(target);
        if (size > MAX_LIST_BYTES) return fail(new DomainError("invalid_request", "The list of URLs is too large"));
        file.text = await fs.promises.readFile(target, "utf8");
      }
      resolve({ fields, file, cleanup });
    });
    source.on("error", () => fail(new DomainError("invalid_request", "The upload was interrupted")));
    source.pipe(parser);
  });
}
