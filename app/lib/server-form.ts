import { z } from "zod";
import { findFileType, normaliseFileTypes } from "~/lib/file-types";
import { cleaned, cleanText, sanitizeInput } from "~/lib/sanitize";

export const DEFAULT_MAX_FILE_SIZE_MB = 50;
/** The rule every path enforces; the form inputs are narrower (create 1-500, edit 1-100). */
export const MAX_FILE_SIZE_MB = 10_000;
export const CREATE_INPUT_MAX_MB = 500;
export const EDIT_INPUT_MAX_MB = 100;
/** The quota check counts a server without a size as this many GB. */
export const FALLBACK_SERVER_GB = 0.05;

export const SERVER_NAME_MAX = 100;
export const DESCRIPTION_MAX = 500;

export const MESSAGES = {
  name: "Server name can only contain letters, numbers, spaces, hyphens, and underscores",
  /** An empty name (or one that was only markup) is missing, not misspelt. */
  nameRequired: "Server name is required",
  url: "Please enter a valid URL",
  fileSize: "Please enter a valid file size (1-10000 MB)",
  description: `Description must be at most ${DESCRIPTION_MAX} characters`,
  fileTypes: "Select at least one file type",
  deleteConfirm: "Are you sure you want to delete this server? This action cannot be undone.",
} as const;

/** Toast title per field, from the spec's validation rules. */
export const FIELD_TOAST_TITLES: Record<string, string> = {
  name: "Invalid server name",
  endpointUrl: "Invalid URL",
  maxFileSizeMb: "Invalid file size",
};

export function adminDeleteConfirm(name: string): string {
  return `Are you sure you want to delete server "${name}"? This action cannot be undone.`;
}

export function quotaExceededMessage(quotaGb: number, usedGb: number): string {
  return `Creating this server would exceed your storage quota of ${formatGbNumber(quotaGb)}GB. Current usage: ${formatGbNumber(usedGb)}GB`;
}

function formatGbNumber(value: number): string {
  return String(Math.round(value * 100) / 100);
}

const name = cleaned(
  z
    .string({ error: MESSAGES.nameRequired })
    .min(1, MESSAGES.nameRequired)
    .max(SERVER_NAME_MAX, MESSAGES.name)
    .regex(/^[A-Za-z0-9 _-]+$/, MESSAGES.name),
);

const description = z.preprocess(
  (value) => {
    const text = cleanText(value ?? "");
    return text === "" ? null : text;
  },
  z.string().max(DESCRIPTION_MAX, MESSAGES.description).nullable(),
);

const endpointUrl = z.preprocess(
  (value) => {
    const cleaned = typeof value === "string" ? value.trim() : value;
    return cleaned === "" || cleaned === undefined ? null : cleaned;
  },
  z
    .string()
    .max(2048, MESSAGES.url)
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === "http:" || url.protocol === "https:";
      } catch {
        return false;
      }
    }, MESSAGES.url)
    .nullable(),
);

/** Blank means the default (the spec's edit form falls back to 50). */
const maxFileSizeMb = z.preprocess(
  (value) => {
    if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return DEFAULT_MAX_FILE_SIZE_MB;
    return typeof value === "string" ? Number(value.trim()) : value;
  },
  z.number({ error: MESSAGES.fileSize }).int(MESSAGES.fileSize).min(1, MESSAGES.fileSize).max(MAX_FILE_SIZE_MB, MESSAGES.fileSize),
);

/** Catalogue names or aliases (app/lib/file-types.ts), stored as catalogue names in catalogue order. */
const allowedFileTypes = z
  .array(z.string({ error: MESSAGES.fileTypes }).refine((type) => findFileType(type) !== undefined, MESSAGES.fileTypes))
  .min(1, MESSAGES.fileTypes)
  .transform((types) => normaliseFileTypes(types).types);

export const serverFormSchema = z.object({ name, description, endpointUrl, maxFileSizeMb, allowedFileTypes });
export type ServerFormValues = z.infer<typeof serverFormSchema>;

export interface FieldError {
  field: string;
  message: string;
  /** The spec's toast title for this field ("Error creating server" style fallback otherwise). */
  toastTitle: string;
}

export type FormResult<T> = { ok: true; data: T } | { ok: false; errors: Record<string, string>; first: FieldError };

/** Reads the server form from FormData (browser submit or server action alike). */
export function parseServerForm(form: FormData, fallbackTitle: string): FormResult<ServerFormValues> {
  const result = serverFormSchema.safeParse({
    name: form.get("name") ?? "",
    description: form.get("description") ?? "",
    endpointUrl: form.get("endpointUrl") ?? "",
    maxFileSizeMb: form.get("maxFileSizeMb") ?? "",
    allowedFileTypes: form.getAll("allowedFileTypes").map(String),
  });
  return toFormResult(result, fallbackTitle);
}

export function toFormResult<T>(
  result: { success: true; data: T } | { success: false; error: z.ZodError },
  fallbackTitle: string,
): FormResult<T> {
  if (result.success) return { ok: true, data: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  const [field, message] = Object.entries(errors)[0]!;
  return { ok: false, errors, first: { field, message, toastTitle: FIELD_TOAST_TITLES[field] ?? fallbackTitle } };
}

/** Retention: delete files of one category after N days. Categories are the scripts' open set. */
export const RETENTION_MAX_DAYS = 3650;
export const retentionRuleSchema = z.object({
  category: z.preprocess(
    (value) => (typeof value === "string" ? sanitizeInput(value).toLowerCase() : value),
    z.string().regex(/^[a-z0-9_-]{1,50}$/, "Category can only contain letters, numbers, hyphens and underscores (up to 50)"),
  ),
  days: z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value),
    z
      .number({ error: `Enter a whole number of days (1-${RETENTION_MAX_DAYS})` })
      .int(`Enter a whole number of days (1-${RETENTION_MAX_DAYS})`)
      .min(1, `Enter a whole number of days (1-${RETENTION_MAX_DAYS})`)
      .max(RETENTION_MAX_DAYS, `Enter a whole number of days (1-${RETENTION_MAX_DAYS})`),
  ),
});
export type RetentionRuleValues = z.infer<typeof retentionRuleSchema>;
