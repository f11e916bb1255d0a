/**
 * The one category catalogue. Categories are an open set: a script may send any name, stored as a
 * sanitised lower-case slug. The catalogue names the ones FiveM scripts commonly send, with the
 * labels every screen shows, and the aliases that screens group with them when reading. Stored
 * categories are never rewritten: a file's category is part of its public URL
 * (/f/{server}/{category}/{file}) and the key its server's retention rules match exactly.
 */

export interface NamedCategory {
  /** The slug scripts send and files are stored under. */
  name: string;
  label: string;
  /** What it is for, for the docs. */
  description: string;
  /** Other slugs for the same thing, grouped with it on screens (underscore form). */
  aliases: readonly string[];
}

/** Screen order: the spec's gallery filters first, `other` last. */
export const NAMED_CATEGORIES: readonly NamedCategory[] = [
  // The spec's "Phone Camera" filter (value phone_camera) means phone photos.
  { name: "phone_photos", label: "Phone Camera", description: "Photos taken with an in-game phone (LB Phone, NPWD, qb-phone)", aliases: ["phone_camera", "phone_photo"] },
  { name: "police_evidence", label: "Police Evidence", description: "Evidence photos from police and MDT scripts", aliases: [] },
  { name: "security_camera", label: "Security Camera", description: "Stills and clips from CCTV and housing cameras", aliases: ["security_cameras"] },
  { name: "screenshots", label: "Screenshot", description: "Screenshots taken by screenshot-basic, fmsdk or screencapture", aliases: ["screenshot"] },
  { name: "phone_videos", label: "Phone Video", description: "Videos recorded with an in-game phone", aliases: ["phone_video"] },
  { name: "phone_audio", label: "Voice Note", description: "Voice notes and audio recorded with an in-game phone", aliases: ["voice_note", "voice_notes"] },
  { name: "bodycam", label: "Bodycam", description: "Police bodycam recordings", aliases: ["bodycams", "body_cam"] },
  { name: "mugshots", label: "Mugshot", description: "Booking photos from MDT and jail scripts", aliases: ["mugshot"] },
  { name: "documents", label: "Document", description: "PDFs and text files: reports, licences, contracts", aliases: ["document"] },
  { name: "other", label: "Other", description: "Anything sent without a category", aliases: [] },
];

/** Stored when an upload names no category. */
export const DEFAULT_CATEGORY = "other";
/** The gallery filter's "every category" value. */
export const ALL_CATEGORIES = "all";
export const CATEGORY_MAX_LENGTH = 40;

const BY_KEY = new Map<string, NamedCategory>();
for (const category of NAMED_CATEGORIES) {
  for (const key of [category.name, ...category.aliases]) BY_KEY.set(key, category);
}

/** Any text folded into the stored slug: "Phone Photos" → "phone_photos"; empty → `other`. */
export function categorySlug(value: string | null | undefined): string {
  const slug = (value ?? "")
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "")
    .slice(0, CATEGORY_MAX_LENGTH)
    .replace(/[_-]+$/, "");
  return slug || DEFAULT_CATEGORY;
}

/** The group a stored category is shown in: `screenshot` reads as `screenshots`, `phone-photos` as `phone_photos`. */
export function canonicalCategory(value: string): string {
  const key = categorySlug(value).replace(/-/g, "_");
  return BY_KEY.get(key)?.name ?? key;
}

/** Underscore forms of every stored slug in a group (compare with `-` read as `_`). */
export function categoryGroupKeys(value: string): string[] {
  const canonical = canonicalCategory(value);
  const named = BY_KEY.get(canonical);
  return named ? [named.name, ...named.aliases] : [canonical];
}

export function namedCategory(value: string): NamedCategory | undefined {
  return BY_KEY.get(canonicalCategory(value));
}

/** A label for any category; unnamed ones are title-cased: `mdt_mugshot` → "Mdt Mugshot". */
export function categoryLabel(value: string): string {
  return namedCategory(value)?.label ?? canonicalCategory(value).replace(/_+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

export interface CategoryCount {
  category: string;
  files: number;
  /** Counting stopped at a cap: there are at least `files`. */
  capped?: boolean;
}

export interface CategoryOption {
  value: string;
  label: string;
  files: number;
  capped?: boolean;
}

/** "12", or "10000+" past the counting cap. */
export function fileCountText(option: CategoryOption): string {
  return `${option.files}${option.capped ? "+" : ""}`;
}

/**
 * What a screen offers: every named category, then the account's own, grouped (aliases and
 * `-`/`_` spellings counted together), busiest first; `other` stays last. `include` adds a value
 * the screen must show even without files (the current filter).
 */
export function groupedCategoryOptions(counts: readonly CategoryCount[], include?: string): CategoryOption[] {
  const groups = new Map<string, CategoryCount>();
  for (const row of counts) {
    const key = canonicalCategory(row.category);
    const group = groups.get(key) ?? { category: key, files: 0 };
    groups.set(key, { category: key, files: group.files + row.files, ...(group.capped || row.capped ? { capped: true } : {}) });
  }
  if (include && include !== ALL_CATEGORIES) {
    const key = canonicalCategory(include);
    groups.set(key, groups.get(key) ?? { category: key, files: 0 });
  }
  const named = NAMED_CATEGORIES.filter((c) => c.name !== DEFAULT_CATEGORY).map((c) => option(c.name, groups));
  const own = [...groups.keys()]
    .filter((key) => !BY_KEY.has(key))
    .map((key) => option(key, groups))
    .sort((a, b) => b.files - a.files || a.value.localeCompare(b.value));
  return [...named, ...own, option(DEFAULT_CATEGORY, groups)];
}

/**
 * The exact stored categories, for pickers whose value is stored or matched as typed (the upload
 * page, retention rules): the named ones, then the account's other stored slugs with their counts,
 * busiest first; `other` stays last.
 */
export function exactCategoryOptions(counts: readonly CategoryCount[]): CategoryOption[] {
  const byCategory = new Map(counts.map((row) => [row.category, row]));
  const named = NAMED_CATEGORIES.filter((c) => c.name !== DEFAULT_CATEGORY).map((c) => option(c.name, byCategory));
  const own = counts
    .filter((row) => !NAMED_CATEGORIES.some((c) => c.name === row.category))
    .map((row) => option(row.category, byCategory))
    .sort((a, b) => b.files - a.files || a.value.localeCompare(b.value));
  return [...named, ...own, option(DEFAULT_CATEGORY, byCategory)];
}

function option(value: string, counts: Map<string, CategoryCount>): CategoryOption {
  const count = counts.get(value);
  return { value, label: categoryLabel(value), files: count?.files ?? 0, ...(count?.capped ? { capped: true } : {}) };
}
