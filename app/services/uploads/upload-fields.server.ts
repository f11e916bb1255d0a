import { parseCaseNumber } from "~/services/files/evidence-cases.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { categorySlug, DEFAULT_CATEGORY } from "~/lib/categories";
import { sanitizeInput } from "~/lib/sanitize";

export { DEFAULT_CATEGORY };
export const METADATA_MAX_BYTES = 16 * 1024;

/** What a client may say about its upload, validated; undefined means "not sent". */
export interface UploadFields {
  category?: string;
  isPublic?: boolean;
  playerName?: string;
  playerIdentifier?: string;
  metadata?: Record<string, unknown>;
  /** The display name the client gave; stored names are always generated. */
  filename?: string;
  serverId?: string;
  /** Keep forever (Fivemanage's `retentionExempt`); honoured on paid plans. */
  retentionExempt?: boolean;
  /** An evidence case number: the files go into that case of the server (opened if new). */
  caseNumber?: string;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

/**
 * Open set of categories, folded into a URL-safe slug: "Phone Photos" → "phone_photos". Stored as
 * sent (not mapped to the catalogue's names): the category is part of the file's public URL.
 */
export function sanitiseCategory(value: string | undefined): string {
  return categorySlug(value);
}

/** A name for display and Content-Disposition only: no path, no control characters, bounded. */
export function sanitiseDisplayName(value: string | undefined): string | undefined {
  const base = (value ?? "").split(/[\\/]/).pop() ?? "";
  const clean = base.replace(CONTROL, "").replace(/["<>]/g, "").trim().slice(0, 200);
  return clean && clean !== "." && clean !== ".." ? clean : undefined;
}

function shortText(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" && typeof value !== "number") throw new DomainError("invalid_request", `${field} must be a string`, { field });
  const clean = String(value).replace(CONTROL, "").trim();
  if (clean.length > max) throw new DomainError("invalid_request", `${field} must be at most ${max} characters`, { field });
  return clean || undefined;
}

function cleanedText(value: string | undefined): string | undefined {
  return value === undefined ? undefined : sanitizeInput(value) || undefined;
}

function parseBoolean(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "boolean") return value;
  const text = String(value).trim().toLowerCase();
  if (["true", "1", "yes", "on"].includes(text)) return true;
  if (["false", "0", "no", "off"].includes(text)) return false;
  throw new DomainError("invalid_request", 'is_public must be "true" or "false"', { field: "is_public" });
}

function parseMetadata(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  let parsed = value;
  if (typeof value === "string") {
    if (Buffer.byteLength(value) > METADATA_MAX_BYTES) throw metadataTooLarge();
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new DomainError("invalid_metadata", "metadata must be a JSON object", { field: "metadata" });
    }
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new DomainError("invalid_metadata", "metadata must be a JSON object", { field: "metadata" });
  }
  if (Buffer.byteLength(JSON.stringify(parsed)) > METADATA_MAX_BYTES) throw metadataTooLarge();
  return parsed as Record<string, unknown>;
}

function metadataTooLarge() {
  return new DomainError("invalid_metadata", "metadata must be at most 16 KB", { field: "metadata" });
}

/** Reads the documented fields from a multipart form, a JSON body or a query string. */
export function parseUploadFields(source: Record<string, unknown>): UploadFields {
  const category = shortText(source.category ?? source.folder, "category", 200);
  return {
    category: category === undefined ? undefined : sanitiseCategory(category),
    isPublic: parseBoolean(source.is_public ?? source.isPublic ?? source.public),
    retentionExempt: parseBoolean(source.retention_exempt ?? source.retentionExempt),
    // Shown on screens, so cleaned like every typed text (tags, scripts, handlers stripped); ids are matched, so kept as sent.
    playerName: cleanedText(shortText(source.player_name ?? source.playerName, "player_name", 100)),
    playerIdentifier: shortText(source.player_identifier ?? source.playerIdentifier, "player_identifier", 200),
    metadata: parseMetadata(source.metadata),
    filename: sanitiseDisplayName(cleanedText(shortText(source.filename ?? source.name, "filename", 1000))),
    serverId: shortText(source.server_id ?? source.serverId, "server_id", 100),
    caseNumber: source.case === undefined || source.case === "" ? undefined : parseCaseNumber(source.case),
  };
}

/** Later sources win field by field (query string first, then body fields). */
export function mergeFields(...all: UploadFields[]): UploadFields {
  const merged: UploadFields = {};
  for (const fields of all) {
    for (const [key, value] of Object.entries(fields) as [keyof UploadFields, never][]) {
      if (value !== undefined) merged[key] = value;
    }
  }
  return merged;
}
