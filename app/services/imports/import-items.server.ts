/** One file an import brings, as every source describes it before the job fetches it. */
export interface ImportItemInput {
  /** The URL to fetch, or the file's path inside the uploaded archive (`archive:` sources). */
  ref: string;
  /** The name the file had where it came from (display only). */
  filename?: string | null;
  channelId?: string | null;
  attachmentId?: string | null;
  messageId?: string | null;
  /** Who posted it (a Discord user's name), kept in the file's metadata. */
  author?: string | null;
  /** When it was first posted (a Discord attachment's snowflake time, a host's upload date). */
  postedAt?: Date | null;
  sizeBytes?: number | null;
}

/** Causes of a failed item, by which the report and the counts group them. */
export const FAILURE_CAUSES = {
  deleted_on_discord: "Deleted on Discord",
  not_found_after_refresh: "Not found after refreshing the link",
  link_expired: "Link expired (give a bot token to refresh it)",
  not_found: "Not found at the source",
  too_large: "Over the size cap",
  type_not_allowed: "Type not allowed",
  quota: "Storage quota full",
  host_not_allowed: "Host not allowed",
  fetch_failed: "Could not be fetched",
  media_missing: "Missing from the export",
  rejected: "Refused by the upload checks",
} as const;

export type FailureCause = keyof typeof FAILURE_CAUSES;
