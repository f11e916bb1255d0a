import { fileTypeFromBuffer } from "file-type";
import { DomainError } from "~/services/platform/domain-error.server";
import { describeAllowedTypes, FILE_TYPES, findFileType, GAME_RESOURCE_NAMES, groupAllowedTypes, type FileTypeEntry } from "~/lib/file-types";

/** Enough leading bytes for file-type to recognise every format it knows. */
export const SNIFF_BYTES = 4100;

export interface DetectedType {
  ext: string;
  mime: string;
}

const TEXT: DetectedType = { ext: "txt", mime: "text/plain" };
const BINARY: DetectedType = { ext: "bin", mime: "application/octet-stream" };

/** Names of formats outside the catalogue that old allow-lists may use for one another. */
const LEGACY_ALIASES: string[][] = [["tif", "tiff"]];

function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    // A multi-byte character may be cut at the end of the sniffed prefix: decoded as a stream, that tail waits
    // for bytes that never come instead of failing, while any invalid sequence before it still throws.
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

function startsWithAscii(bytes: Uint8Array, text: string): boolean {
  if (bytes.length < text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[i] !== text.charCodeAt(i)) return false;
  return true;
}

/** GTA V resource containers (.ytd, .ydr, .yft, …) start with the magic "RSC7" or "RSC8". */
function isGameResource(head: Uint8Array): boolean {
  return startsWithAscii(head, "RSC7") || startsWithAscii(head, "RSC8");
}

function gameResourceType(clientFilename: string | undefined): DetectedType {
  const ext = clientFilename?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  return { ext: ext && GAME_RESOURCE_NAMES.includes(ext) ? ext : "rsc", mime: "application/octet-stream" };
}

/** An EBML variable-length size at `at`: its length in bytes and its value. */
function readVint(bytes: Uint8Array, at: number): { length: number; value: number } | undefined {
  const first = bytes[at];
  if (first === undefined || first === 0) return undefined;
  let length = 1;
  while (!(first & (0x80 >> (length - 1)))) length++;
  if (at + length > bytes.length) return undefined;
  let value = first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + bytes[at + i]!;
  return { length, value };
}

/**
 * The track CodecIDs (EBML element 0x86) in a Matroska/WebM header, e.g. `["V_VP9", "A_OPUS"]`.
 * MediaRecorder writes its Tracks element in the first few hundred bytes.
 */
export function webmCodecIds(head: Uint8Array): string[] {
  const ids: string[] = [];
  for (let i = 0; i < head.length - 3; i++) {
    if (head[i] !== 0x86) continue;
    const size = readVint(head, i + 1);
    if (!size || size.value < 3 || size.value > 32) continue;
    const start = i + 1 + size.length;
    const end = start + size.value;
    if (end > head.length) continue;
    const text = String.fromCharCode(...head.subarray(start, end)).replace(/\0+$/, "");
    if (/^[VAS]_[A-Z0-9][A-Z0-9/_.-]*$/.test(text)) ids.push(text);
  }
  return ids;
}

/**
 * The catalogue entry a detected type belongs to: by MIME first, then by extension. An unknown
 * binary (`bin`) belongs to none, although game resources share its MIME type.
 */
function catalogueEntry(found: DetectedType): FileTypeEntry | undefined {
  if (found.mime === BINARY.mime) return GAME_RESOURCE_NAMES.includes(found.ext) ? findFileType(found.ext) : undefined;
  return FILE_TYPES.find((t) => t.mimes.includes(found.mime)) ?? findFileType(found.ext);
}

/**
 * The type of a file from its first bytes, never from its name or the client's Content-Type.
 * The client's filename only names which game resource an RSC7/RSC8 binary is.
 */
export async function detectType(head: Uint8Array, clientFilename?: string): Promise<DetectedType> {
  if (isGameResource(head)) return gameResourceType(clientFilename);
  const found = await fileTypeFromBuffer(head);
  if (!found) return looksLikeText(head) ? TEXT : BINARY;
  const base: DetectedType = { ext: found.ext, mime: found.mime.split(";")[0]!.trim().toLowerCase() };
  if (base.ext === "webm") {
    // A WebM whose tracks are all audio (a MediaRecorder voice note) is audio, not video.
    const codecs = webmCodecIds(head);
    if (codecs.length > 0 && codecs.every((c) => c.startsWith("A_"))) return { ext: "weba", mime: "audio/webm" };
  }
  const known = catalogueEntry(base);
  // The catalogue's first MIME is the one stored, so one format is always stored under one name.
  return known && known.mimes.includes(base.mime) ? { ext: base.ext, mime: known.mimes[0]! } : base;
}

function namesOf(type: DetectedType): string[] {
  const known = catalogueEntry(type);
  if (known) return [known.name, ...known.aliases];
  return LEGACY_ALIASES.find((group) => group.includes(type.ext)) ?? [type.ext];
}

/**
 * Whether a server's `allowed_file_types` admits a detected type. Entries are catalogue names or
 * aliases (`jpg`/`jpeg`, `ogg`/`opus`, `.png`); old data may hold MIME types (`image/png`),
 * wildcards (`image/*`) or `*`.
 */
export function isTypeAllowed(allowed: readonly string[], type: DetectedType): boolean {
  const accepted = namesOf(type);
  return allowed.some((raw) => {
    const entry = raw.trim().toLowerCase().replace(/^\./, "");
    if (entry === "*" || entry === "*/*") return true;
    if (entry.endsWith("/*")) return type.mime.startsWith(entry.slice(0, -1));
    if (entry.includes("/")) return entry === type.mime;
    return accepted.includes(entry);
  });
}

/** 415 naming the detected type and the server's allow-list by group. */
export function assertTypeAllowed(allowed: readonly string[], type: DetectedType): void {
  if (isTypeAllowed(allowed, type)) return;
  throw new DomainError("unsupported_file_type",
    `File type ${type.ext} (${type.mime}) is not allowed on this server. Allowed: ${describeAllowedTypes(allowed)}`,
    {
      detected_type: type.mime,
      allowed_types: [...allowed],
      allowed_types_by_group: groupAllowedTypes(allowed),
    },
  );
}
