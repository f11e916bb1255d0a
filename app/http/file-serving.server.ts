import type { ByteRange } from "../../storage/blob-store";

/**
 * The HTTP semantics of serving one stored file, shared by the /f/ fast path (Express) and the
 * /api/download resource routes (Fetch Response): conditional requests, byte ranges, caching and
 * the headers that keep uploaded content from running in a browser.
 */

export interface ServableFile {
  size: number;
  /** Hex SHA-256 of the bytes; the strong validator. */
  sha256: string;
  mimeType: string;
  lastModified: Date;
  /** Name offered to a browser that saves the file. */
  downloadName: string;
  isPublic: boolean;
}

/** Headers the host sets on every file and script-API answer; a route's own copy would be appended as a duplicate. */
const HOST_SET_HEADERS = [
  "X-Content-Type-Options",
  "Content-Security-Policy",
  "Cross-Origin-Resource-Policy",
  "Access-Control-Allow-Origin",
  "Access-Control-Expose-Headers",
  "Access-Control-Allow-Methods",
  "Access-Control-Allow-Headers",
  "Access-Control-Max-Age",
];

/** `headers` without those the host already set, for a Response a route returns. */
export function withoutHostHeaders(headers: HeadersInit): Headers {
  const result = new Headers(headers);
  for (const name of HOST_SET_HEADERS) result.delete(name);
  return result;
}

type FileRow = { size_bytes: number | string; sha256: string; mime_type: string; created_at: Date | string; original_filename: string | null; filename: string; is_public: boolean };
type VariantRow = { size_bytes: number | string; variant: string; mime_type: string; created_at: Date | string };

/** A file row as served: the one mapping for /f/, /api/download and the portal's media route. */
export function servableOriginal(file: FileRow): ServableFile {
  return {
    size: Number(file.size_bytes),
    sha256: file.sha256,
    mimeType: file.mime_type,
    lastModified: new Date(file.created_at),
    downloadName: file.original_filename || file.filename,
    isPublic: file.is_public,
  };
}

/** One of a file's variants as served; its name keeps the file's and takes the variant's extension. */
export function servableVariant(file: FileRow, variant: VariantRow): ServableFile {
  return {
    size: Number(variant.size_bytes),
    sha256: `${file.sha256}-${variant.variant}`,
    mimeType: variant.mime_type,
    lastModified: new Date(variant.created_at),
    downloadName: `${(file.original_filename || file.filename).replace(/\.[^.]*$/, "")}.${variant.variant.split(".").pop()}`,
    isPublic: file.is_public,
  };
}

export interface RequestFacts {
  method: string;
  header(name: string): string | undefined;
}

export interface ServingOptions {
  /** Force a download dialog even for types that may display inline. */
  forceAttachment?: boolean;
  /** Responses whose body depends on the Accept header (format=auto). */
  varyAccept?: boolean;
  /** Responses whose body depends on the User-Agent (a video's format=auto: MP4 for Safari). */
  varyUserAgent?: boolean;
  /** A stand-in answer (WebP while the AVIF is made): cached a minute, so clients come back for the better one. */
  shortCache?: boolean;
}

export type ServingPlan =
  | { status: 304; headers: Record<string, string> }
  | { status: 416; headers: Record<string, string> }
  | { status: 200 | 206; headers: Record<string, string>; range: ByteRange | null; length: number; sendBody: boolean };

export type RangeRequest = { kind: "none" } | { kind: "range"; range: ByteRange } | { kind: "unsatisfiable" };

const PUBLIC_CACHE = "public, max-age=31536000, immutable";
const SHORT_PUBLIC_CACHE = "public, max-age=60";
const PRIVATE_CACHE = "private, no-cache";

/**
 * Types a browser may render from our origin without running anything. Everything else (HTML,
 * SVG, XML, scripts, PDF, unknown) is only ever offered as an attachment.
 */
const INLINE_TYPES = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
  "text/plain",
]);

export function mayDisplayInline(mimeType: string): boolean {
  const base = mimeType.split(";")[0].trim().toLowerCase();
  return INLINE_TYPES.has(base) || base.startsWith("video/") || base.startsWith("audio/");
}

export function etagFor(sha256: string, variant?: string): string {
  return variant ? `"${sha256}-${variant}"` : `"${sha256}"`;
}

/** RFC 9110 weak comparison, as If-None-Match requires. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((candidate) => {
    const value = candidate.trim();
    return value === "*" || value.replace(/^W\//, "") === bare;
  });
}

/**
 * One `bytes=` range. Several ranges are answered with the whole file (RFC 9110 allows
 * ignoring Range); a syntactically bad header is ignored too, an unsatisfiable one gets 416.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: "none" };
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!match) return { kind: "none" };
  const [, startText, endText] = match;
  if (startText === "" && endText === "") return { kind: "none" };
  if (startText === "") {
    const suffix = Number(endText);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "range", range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(startText);
  const end = endText === "" ? size - 1 : Math.min(Number(endText), size - 1);
  if (start >= size || (endText !== "" && Number(endText) < start)) return { kind: "unsatisfiable" };
  return { kind: "range", range: { start, end } };
}

/** RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name in filename*. */
export function contentDisposition(kind: "inline" | "attachment", filename: string): string {
  const clean = filename.replace(/[\r\n"\\/]/g, "_").trim() || "download";
  const ascii = clean.replace(/[^\x20-\x7e]/g, "_").replace(/[%;]/g, "_");
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Headers every file response carries, whatever its status. */
export function fileHeaders(file: ServableFile, options: ServingOptions = {}): Record<string, string> {
  const inline = !options.forceAttachment && mayDisplayInline(file.mimeType);
  const headers: Record<string, string> = {
    ETag: etagFor(file.sha256),
    "Last-Modified": file.lastModified.toUTCString(),
    "Cache-Control": !file.isPublic ? PRIVATE_CACHE : options.shortCache ? SHORT_PUBLIC_CACHE : PUBLIC_CACHE,
    "Content-Type": file.mimeType,
    "Content-Disposition": contentDisposition(inline ? "inline" : "attachment", file.downloadName),
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "sandbox",
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": "Content-Length, Content-Range, Content-Disposition, ETag",
    "Cross-Origin-Resource-Policy": "cross-origin",
  };
  const vary = [options.varyAccept ? "Accept" : null, options.varyUserAgent ? "User-Agent" : null].filter(Boolean);
  if (vary.length) headers.Vary = vary.join(", ");
  return headers;
}

function notModifiedSince(header: string | undefined, lastModified: Date): boolean {
  if (!header) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
}

/** Decides status, headers and byte range for a GET or HEAD of one file. */
export function planFileResponse(request: RequestFacts, file: ServableFile, options: ServingOptions = {}): ServingPlan {
  const headers = fileHeaders(file, options);
  const ifNoneMatch = request.header("if-none-match");
  const fresh = ifNoneMatch
    ? etagMatches(ifNoneMatch, headers.ETag)
    : notModifiedSince(request.header("if-modified-since"), file.lastModified);
  if (fresh) {
    const { "Content-Type": _type, "Content-Disposition": _disposition, ...rest } = headers;
    return { status: 304, headers: rest };
  }

  const ifRange = request.header("if-range");
  const rangeAllowed = !ifRange || ifRange.trim() === headers.ETag;
  const wanted = rangeAllowed ? parseRange(request.header("range"), file.size) : ({ kind: "none" } as const);
  const sendBody = request.method !== "HEAD";
  if (wanted.kind === "unsatisfiable") {
    return {
      status: 416,
      headers: { ...headers, "Content-Range": `bytes */${file.size}`, "Content-Type": "application/json", "Content-Disposition": "inline" },
    };
  }
  if (wanted.kind === "range") {
    const { start, end } = wanted.range;
    const length = end - start + 1;
    return {
      status: 206,
      headers: { ...headers, "Content-Range": `bytes ${start}-${end}/${file.size}`, "Content-Length": String(length) },
      range: wanted.range,
      length,
      sendBody,
    };
  }
  return { status: 200, headers: { ...headers, "Content-Length": String(file.size) }, range: null, length: file.size, sendBody };
}

export const RANGE_NOT_SATISFIABLE_BODY = JSON.stringify({
  success: false,
  status: "error",
  error: "Requested range not satisfiable",
  message: "Requested range not satisfiable",
  code: "range_not_satisfiable",
});
