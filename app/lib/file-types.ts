/**
 * The one file-type catalogue: what a server's `allowed_file_types` may name, how the portal
 * groups the toggles, and which MIME types detection yields for each. Browser-safe.
 */

export type FileTypeGroupId = "images" | "video" | "audio" | "documents" | "game";

export interface FileTypeEntry {
  /** The name stored in `allowed_file_types` and shown on the toggle. */
  name: string;
  /** Other names for the same format; an allow-list naming any of them admits it. */
  aliases: readonly string[];
  label: string;
  /** What detection yields for this format; the first is the one stored with the file. */
  mimes: readonly string[];
}

export interface FileTypeGroup {
  id: FileTypeGroupId;
  label: string;
  types: readonly FileTypeEntry[];
}

const entry = (name: string, label: string, mimes: string[], aliases: string[] = []): FileTypeEntry => ({ name, aliases, label, mimes });

/** GTA V resource binaries (RSC7/RSC8 containers): stored and served as opaque attachments. */
const GAME_RESOURCE = "application/octet-stream";

export const FILE_TYPE_GROUPS: readonly FileTypeGroup[] = [
  {
    id: "images",
    label: "Images",
    types: [
      entry("jpg", "JPEG", ["image/jpeg"], ["jpeg", "jpe"]),
      entry("png", "PNG", ["image/png"]),
      entry("gif", "GIF", ["image/gif"]),
      entry("webp", "WebP", ["image/webp"]),
      entry("avif", "AVIF", ["image/avif"]),
      entry("heic", "HEIC", ["image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence"], ["heif"]),
    ],
  },
  {
    id: "video",
    label: "Video",
    types: [
      entry("mp4", "MP4", ["video/mp4"], ["m4v"]),
      entry("webm", "WebM video", ["video/webm"]),
      entry("mov", "QuickTime", ["video/quicktime"], ["qt"]),
      entry("avi", "AVI", ["video/x-msvideo", "video/vnd.avi", "video/avi"]),
      entry("mkv", "Matroska", ["video/x-matroska", "video/matroska"]),
    ],
  },
  {
    id: "audio",
    label: "Audio",
    types: [
      entry("mp3", "MP3", ["audio/mpeg"], ["mpeg"]),
      entry("ogg", "Ogg / Opus", ["audio/ogg", "audio/opus"], ["opus", "oga"]),
      entry("weba", "WebM audio", ["audio/webm"]),
      entry("wav", "WAV", ["audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave"], ["wave"]),
      entry("m4a", "M4A", ["audio/mp4", "audio/x-m4a"]),
      entry("aac", "AAC", ["audio/aac", "audio/x-aac"]),
    ],
  },
  {
    id: "documents",
    label: "Documents",
    types: [entry("pdf", "PDF", ["application/pdf"]), entry("txt", "Text", ["text/plain"], ["text"])],
  },
  {
    id: "game",
    label: "Game resources",
    types: [
      entry("zip", "ZIP", ["application/zip"]),
      entry("7z", "7-Zip", ["application/x-7z-compressed"]),
      entry("rar", "RAR", ["application/x-rar-compressed", "application/vnd.rar"]),
      entry("ytd", "Texture dictionary (.ytd)", [GAME_RESOURCE]),
      entry("ydr", "Drawable (.ydr)", [GAME_RESOURCE]),
      entry("ydd", "Drawable dictionary (.ydd)", [GAME_RESOURCE]),
      entry("yft", "Fragment (.yft)", [GAME_RESOURCE]),
      entry("ybn", "Collision bounds (.ybn)", [GAME_RESOURCE]),
      entry("ycd", "Clip dictionary (.ycd)", [GAME_RESOURCE]),
      entry("ymap", "Map placement (.ymap)", [GAME_RESOURCE]),
      entry("ytyp", "Archetypes (.ytyp)", [GAME_RESOURCE]),
      entry("ynv", "Nav mesh (.ynv)", [GAME_RESOURCE]),
      entry("ynd", "Path nodes (.ynd)", [GAME_RESOURCE]),
      entry("rsc", "Other RSC resource", [GAME_RESOURCE]),
    ],
  },
];

export const FILE_TYPES: readonly FileTypeEntry[] = FILE_TYPE_GROUPS.flatMap((g) => g.types);

/** Every name a toggle can post, in catalogue order. */
export const FILE_TYPE_NAMES: readonly string[] = FILE_TYPES.map((t) => t.name);

/**
 * New servers accept every image, video and audio type FiveM scripts send, and PDF: the spec's default
 * selection (jpg, jpeg, png, gif, mp4, pdf) plus media, so an MDT's report attachments work too.
 */
export const DEFAULT_FILE_TYPES: readonly string[] = FILE_TYPE_GROUPS.flatMap((g) =>
  ["images", "video", "audio"].includes(g.id) ? g.types : g.types.filter((t) => t.name === "pdf"),
).map((t) => t.name);

/** A file input's `accept`: every catalogue type by MIME family or extension (the server still decides by bytes). */
export const FILE_INPUT_ACCEPT = ["image/*", "video/*", "audio/*", ...FILE_TYPES.flatMap((t) => [t.name, ...t.aliases].map((n) => `.${n}`))].join(",");

/** The default before the catalogue existed; migration 0004 moved servers still on it to the media types, 0020 adds pdf. */
export const LEGACY_DEFAULT_FILE_TYPES: readonly string[] = ["jpg", "jpeg", "png", "gif", "mp4", "pdf"];

/** The game-resource names an RSC7/RSC8 binary may be stored as (from the client's extension). */
export const GAME_RESOURCE_NAMES: readonly string[] = FILE_TYPE_GROUPS.find((g) => g.id === "game")!.types
  .filter((t) => t.mimes[0] === GAME_RESOURCE)
  .map((t) => t.name);

function normalise(raw: string): string {
  return raw.trim().toLowerCase().replace(/^\./, "");
}

/** The catalogue entry a name or alias (`jpeg`, `.opus`) stands for. */
export function findFileType(name: string): FileTypeEntry | undefined {
  const wanted = normalise(name);
  return FILE_TYPES.find((t) => t.name === wanted || t.aliases.includes(wanted));
}

export function groupOf(name: string): FileTypeGroup | undefined {
  const found = findFileType(name);
  return found ? FILE_TYPE_GROUPS.find((g) => g.types.includes(found)) : undefined;
}

/** Group names the CLI and API accept for "every type of this group" (`images`, `video`, `audio` …). */
export function findFileTypeGroup(name: string): FileTypeGroup | undefined {
  const wanted = normalise(name);
  return FILE_TYPE_GROUPS.find((g) => g.id === wanted || g.label.toLowerCase() === wanted || (g.id === "game" && wanted === "game-resources"));
}

/**
 * Names (and group names) to the stored form: catalogue names in catalogue order, aliases folded
 * (`jpeg` → `jpg`), duplicates dropped. Returns the names it does not know in `unknown`.
 */
export function normaliseFileTypes(names: readonly string[]): { types: string[]; unknown: string[] } {
  const chosen = new Set<string>();
  const unknown: string[] = [];
  for (const raw of names) {
    if (normalise(raw) === "") continue;
    const group = findFileTypeGroup(raw);
    if (group) group.types.forEach((t) => chosen.add(t.name));
    else {
      const found = findFileType(raw);
      if (found) chosen.add(found.name);
      else unknown.push(raw.trim());
    }
  }
  return { types: FILE_TYPE_NAMES.filter((n) => chosen.has(n)), unknown };
}

export interface AllowedGroup {
  label: string;
  types: string[];
}

/**
 * A server's allow-list by group, in catalogue order; entries the catalogue does not name
 * (MIME types, wildcards, old extensions) come last under "Other", as stored.
 */
export function groupAllowedTypes(allowed: readonly string[]): AllowedGroup[] {
  const names = new Set<string>();
  const other: string[] = [];
  for (const raw of allowed) {
    const found = findFileType(raw);
    if (found) names.add(found.name);
    else if (!other.includes(raw)) other.push(raw);
  }
  const groups = FILE_TYPE_GROUPS.map((g) => ({ label: g.label, types: g.types.filter((t) => names.has(t.name)).map((t) => t.name) })).filter(
    (g) => g.types.length > 0,
  );
  return other.length ? [...groups, { label: "Other", types: other }] : groups;
}

/** "Images (jpg, png), Video (mp4)": the allow-list as error messages and the CLI print it. */
export function describeAllowedTypes(allowed: readonly string[]): string {
  const groups = groupAllowedTypes(allowed);
  return groups.length ? groups.map((g) => `${g.label} (${g.types.join(", ")})`).join(", ") : "none";
}
