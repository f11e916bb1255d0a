import { fileTypeFromBuffer } from "file-type";
import { ApiError } from "../lib/api-response.ts";

/** Enough leading bytes for file-type to recognise every format it knows. */
export const SNIFF_BYTES = 4100;

export interface DetectedType {
  ext: string;
  mime: string;
}

const TEXT: DetectedType = { ext: "txt", mime: "text/plain" };
const BINARY: DetectedType = { ext: "bin", mime: "application/octet-stream" };

/** Names one format goes by; an allow-list naming any of them admits the others. */
const ALIASES: string[][] = [
  ["jpg", "jpeg", "jpe"],
  ["tif", "tiff"],
  ["ogg", "oga", "ogv", "opus"],
  ["mp4", "m4v"],
  ["mov", "qt"],
  ["mp3", "mpeg"],
  ["txt", "text"],
];

function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    // A multi-byte character may be cut at the end of the sniffed prefix; fatal decoding of the rest decides.
    new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, Math.max(0, bytes.length - 3)));
    return true;
  } catch {
    return false;
  }
}

/** The type of a file from its first bytes, never from its name or the client's Content-Type. */
export async function detectType(head: Uint8Array): Promise<DetectedType> {
  const found = await fileTypeFromBuffer(head);
  if (found) return { ext: found.ext, mime: found.mime };
  return looksLikeText(head) ? TEXT : BINARY;
}

function names(ext: string): string[] {
  return ALIASES.find((group) => group.includes(ext)) ?? [ext];
}

/**
 * Whether a server's `allowed_file_types` admits a detected type. Entries may be extensions
 * (`png`, `.png`), MIME types (`image/png`), wildcards (`image/*`) or `*`.
 */
export function isTypeAllowed(allowed: readonly string[], type: DetectedType): boolean {
  const accepted = names(type.ext);
  return allowed.some((raw) => {
    const entry = raw.trim().toLowerCase().replace(/^\./, "");
    if (entry === "*" || entry === "*/*") return true;
    if (entry.endsWith("/*")) return type.mime.startsWith(entry.slice(0, -1));
    if (entry.includes("/")) return entry === type.mime;
    return accepted.includes(entry);
  });
}

export function assertTypeAllowed(allowed: readonly string[], type: DetectedType): void {
  if (isTypeAllowed(allowed, type)) return;
  throw new ApiError(415, "unsupported_file_type", `File type ${type.ext} (${type.mime}) is not allowed on this server`, {
    detected_type: type.mime,
    allowed_types: [...allowed],
  });
}
