import type { Config } from "~/services/platform/env.server";
import type { ArchiveLimits } from "~/services/imports/import-archive.server";

/**
 * What an import keeps in the blob store while it runs, under `imports/{id}/`: the uploaded archive
 * (a `--media` export, a zip of files) and the export's log entries. The job deletes them when it
 * ends; the orphan sweep leaves them alone while the import is not over.
 */
export const IMPORT_BLOB_ROOT = "imports";
export const importBlobPrefix = (id: string) => `${IMPORT_BLOB_ROOT}/${id}`;
export const archiveKey = (id: string) => `${importBlobPrefix(id)}/archive.zip`;
export const logEntriesKey = (id: string) => `${importBlobPrefix(id)}/log-entries.ndjson`;

/** Largest export JSON read whole (JSON.parse holds it in memory). */
export const MAX_EXPORT_JSON_BYTES = 256 * 1024 * 1024;

/** An uploaded archive may unpack to twice its cap (media hardly compresses), one entry to the JSON or file limit. */
export function archiveLimits(config: Pick<Config, "IMPORT_MAX_ARCHIVE_MB" | "maxUploadBytes">): ArchiveLimits {
  const cap = config.IMPORT_MAX_ARCHIVE_MB * 1024 * 1024;
  return { maxEntries: 100_000, maxTotalBytes: 2 * cap, maxEntryBytes: Math.max(config.maxUploadBytes, MAX_EXPORT_JSON_BYTES) };
}
