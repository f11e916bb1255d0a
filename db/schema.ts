import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { Role } from "../app/lib/roles";
import type { Tier } from "../app/lib/plans";
import type { AssignableRole, TeamPermission, TeamRole } from "../app/lib/team-roles";
import type { ApiKeyId, CaseId, FileId, ImportId, ServerId, TeamId, UserId } from "../app/lib/ids";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json = ColumnType<Record<string, unknown>, string | Record<string, unknown> | undefined, string | Record<string, unknown>>;
type TextArray = ColumnType<string[], string[] | undefined, string[]>;

export type { Role } from "../app/lib/roles";
export type { ApiKeyId, CaseId, FileId, ImportId, ServerId, TeamId, UserId } from "../app/lib/ids";
export type { Tier } from "../app/lib/plans";
export type ServerStatus = "active" | "inactive" | "maintenance";
export type TokenPurpose = "email_confirm" | "password_reset" | "email_change";

export interface UsersTable {
  id: Generated<UserId>;
  email: string | null;
  email_verified_at: NullableTimestamp;
  password_hash: string | null;
  display_name: string | null;
  avatar_url: string | null;
  role: ColumnType<Role, Role | undefined, Role>;
  created_at: Timestamp;
  last_sign_in_at: NullableTimestamp;
}

export interface TeamsTable {
  id: Generated<TeamId>;
  name: string;
  owner_user_id: UserId;
  created_at: Timestamp;
}

export interface TeamMembersTable {
  team_id: TeamId;
  user_id: UserId;
  role: TeamRole;
  permissions: ColumnType<TeamPermission[], TeamPermission[], TeamPermission[]>;
  joined_at: Timestamp;
}

export type InvitationStatus = "pending" | "accepted" | "declined" | "revoked";

export interface TeamInvitationsTable {
  id: Generated<string>;
  team_id: TeamId;
  email: string;
  role: AssignableRole;
  permissions: ColumnType<TeamPermission[], TeamPermission[], TeamPermission[]>;
  token_hash: string;
  invited_by_user_id: UserId | null;
  status: ColumnType<InvitationStatus, InvitationStatus | undefined, InvitationStatus>;
  expires_at: Date;
  created_at: Timestamp;
  answered_at: NullableTimestamp;
}

export interface IdentitiesTable {
  id: Generated<string>;
  user_id: UserId;
  provider: string;
  provider_user_id: string;
  username: string | null;
  avatar: string | null;
  email: string | null;
  created_at: Timestamp;
}

/** `id` is the SHA-256 of the token in the cookie, so a leaked table cannot be replayed. */
export interface SessionsTable {
  id: string;
  user_id: UserId;
  expires_at: Date;
  created_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
  /** The team this browser session acts in; null: the member's first team. */
  team_id: ColumnType<TeamId | null, TeamId | null | undefined, TeamId | null>;
}

export interface AuthTokensTable {
  id: Generated<string>;
  user_id: UserId;
  purpose: TokenPurpose;
  token_hash: string;
  expires_at: Date;
  used_at: NullableTimestamp;
  created_at: Timestamp;
  /** The address an `email_change` token moves the account to once clicked. */
  new_email: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ServersTable {
  id: ServerId;
  team_id: TeamId;
  name: string;
  description: string | null;
  endpoint_url: string | null;
  max_file_size_mb: ColumnType<number, number | undefined, number>;
  allowed_file_types: TextArray;
  storage_quota_gb: ColumnType<number, number | undefined, number>;
  storage_used_bytes: ColumnType<number, number | undefined, number>;
  status: ColumnType<ServerStatus, ServerStatus | undefined, ServerStatus>;
  default_public: ColumnType<boolean, boolean | undefined, boolean>;
  strip_metadata: ColumnType<boolean, boolean | undefined, boolean>;
  convert_to_webp: ColumnType<boolean, boolean | undefined, boolean>;
  webhook_secret: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RetentionRulesTable {
  server_id: ServerId;
  category: string;
  days: number;
}

export interface ApiKeysTable {
  id: Generated<ApiKeyId>;
  server_id: ServerId;
  team_id: TeamId;
  name: string;
  key_prefix: string;
  key_hash: string;
  permissions: TextArray;
  status: ColumnType<"active" | "revoked", "active" | "revoked" | undefined, "active" | "revoked">;
  expires_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  created_at: Timestamp;
  /** Categories the key may write (`phone_*` matches a prefix); null: any. */
  allowed_categories: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  max_file_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  /** Client addresses (IPs or CIDR ranges) the key may be used from; null: any. */
  allowed_ips: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
}

export interface UploadGrantsTable {
  id: Generated<string>;
  token_hash: string;
  server_id: ServerId;
  api_key_id: ApiKeyId | null;
  constraints: Json;
  expires_at: Date;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface FilesTable {
  id: Generated<FileId>;
  server_id: ServerId;
  team_id: TeamId;
  storage_key: string;
  filename: string;
  original_filename: string;
  category: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  is_public: boolean;
  player_name: string | null;
  player_identifier: string | null;
  metadata: Json;
  created_at: Timestamp;
  expires_at: NullableTimestamp;
  expiry_notified_at: NullableTimestamp;
  uploaded_via: ColumnType<UploadVia, UploadVia | undefined, UploadVia>;
  /** The key that sent it (null for the portal, a webhook, or a key since deleted). */
  api_key_id: ColumnType<ApiKeyId | null, ApiKeyId | null | undefined, ApiKeyId | null>;
  /** Set when an admin hid the file after a report: served 451 until restored. */
  hidden_at: NullableTimestamp;
  /** Kept forever: the server's retention rules skip it (a paid plan's allowance; free files still go at 30 days). */
  retention_exempt: ColumnType<boolean, boolean | undefined, boolean>;
  /** ThumbHash placeholder (base64) of an image or a video's poster. */
  thumbhash: ColumnType<string | null, string | null | undefined, string | null>;
  /** Queued for an MP4 copy (docs/decisions/076); cleared once made. */
  mp4_wanted_at: NullableTimestamp;
  /** The copy could not be made within the cap; not retried. */
  mp4_failed_at: NullableTimestamp;
  /** Why the MP4 copy failed, in words for the file's page (with mp4_failed_at). */
  mp4_failure: string | null;
}

export type UploadVia = "api" | "portal" | "webhook" | "presigned" | "import";
export type ReportStatus = "open" | "hidden" | "dismissed";

export interface FileReportsTable {
  id: Generated<string>;
  file_id: FileId;
  reason: string;
  details: ColumnType<string, string | undefined, string>;
  contact: string | null;
  reporter_ip: string | null;
  status: ColumnType<ReportStatus, ReportStatus | undefined, ReportStatus>;
  created_at: Timestamp;
  resolved_at: NullableTimestamp;
  resolved_by: UserId | null;
}

export interface FileVariantsTable {
  file_id: FileId;
  variant: string;
  storage_key: string;
  mime_type: string;
  size_bytes: number;
  width: number | null;
  height: number | null;
  created_at: Timestamp;
  /** Made for a `/f/…?w=` request (counted in usage, capped per file), not at upload. */
  on_demand: Generated<boolean>;
  last_used_at: Generated<Date>;
}

export interface SubscriptionsTable {
  team_id: TeamId;
  tier: ColumnType<Tier, Tier | undefined, Tier>;
  status: ColumnType<string, string | undefined, string>;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  current_period_end: NullableTimestamp;
  updated_at: Timestamp;
}

export interface StorageAddonsTable {
  id: Generated<string>;
  team_id: TeamId;
  gb: number;
  expires_at: NullableTimestamp;
  stripe_reference: string | null;
  created_at: Timestamp;
}

export interface AccountUsageTable {
  team_id: TeamId;
  used_bytes: ColumnType<number, number | undefined, number>;
  updated_at: Timestamp;
}

export interface AuditLogsTable {
  id: Generated<number>;
  team_id: TeamId | null;
  server_id: ServerId | null;
  api_key_id: ApiKeyId | null;
  action: string;
  ip: string | null;
  detail: Json;
  created_at: Timestamp;
  /** The signed-in person who acted in the portal; null for key calls (api_key_id) and the system. */
  actor_user_id: ColumnType<UserId | null, UserId | null | undefined, UserId | null>;
  /** What was acted on, as app/lib/audit-targets.ts names it: `a.png (id)`, a key's name, a member's e-mail, `Case XT-0020`. */
  target: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CasesTable {
  id: Generated<CaseId>;
  server_id: ServerId;
  team_id: TeamId;
  number: string;
  title: string;
  notes: ColumnType<string, string | undefined, string>;
  status: ColumnType<"open" | "closed", "open" | "closed" | undefined, "open" | "closed">;
  created_at: Timestamp;
  closed_at: NullableTimestamp;
  signing_key: string;
}

export interface CaseFilesTable {
  case_id: CaseId;
  file_id: FileId;
  added_at: Timestamp;
  added_by_user_id: ColumnType<UserId | null, UserId | null | undefined, UserId | null>;
  added_by_key_id: ColumnType<ApiKeyId | null, ApiKeyId | null | undefined, ApiKeyId | null>;
}

export interface CaseMembersTable {
  case_id: CaseId;
  user_id: UserId;
}

export interface LogDatasetsTable {
  id: Generated<string>;
  server_id: ServerId;
  name: string;
  retention_days: number;
  created_at: Timestamp;
}

export interface LogEntriesTable {
  id: Generated<string>;
  ts: Date;
  dataset_id: string;
  level: string;
  resource: string | null;
  message: string;
  metadata: Json;
  received_at: Timestamp;
}

export interface LogSavedQueriesTable {
  id: Generated<string>;
  team_id: TeamId;
  name: string;
  /** The Logs page's query string (filters only). */
  query: string;
  created_by_user_id: UserId | null;
  created_at: Timestamp;
}

export interface LogForwardsTable {
  id: Generated<string>;
  dataset_id: string;
  webhook_url: string;
  min_level: ColumnType<string, string | undefined, string>;
  resource: string | null;
  contains: string | null;
  next_attempt_at: NullableTimestamp;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  created_at: Timestamp;
}

export interface LogForwardQueueTable {
  id: Generated<string>;
  forward_id: string;
  entry: Json;
  created_at: Timestamp;
}

export type LogAlertKind = "match" | "count" | "absence";

export interface LogAlertsTable {
  id: Generated<string>;
  dataset_id: string;
  name: string;
  kind: LogAlertKind;
  min_level: ColumnType<string, string | undefined, string>;
  resource: string | null;
  contains: string | null;
  threshold: ColumnType<number, number | undefined, number>;
  window_minutes: ColumnType<number, number | undefined, number>;
  cooldown_minutes: ColumnType<number, number | undefined, number>;
  channel: "discord" | "email";
  target: string;
  firing: ColumnType<boolean, boolean | undefined, boolean>;
  last_fired_at: NullableTimestamp;
  checked_until: NullableTimestamp;
  created_at: Timestamp;
}

export interface UsageDailyTable {
  server_id: ServerId;
  day: ColumnType<string, string, string>;
  uploads: ColumnType<number, number | undefined, number>;
  upload_bytes: ColumnType<number, number | undefined, number>;
  downloads: ColumnType<number, number | undefined, number>;
  download_bytes: ColumnType<number, number | undefined, number>;
  api_calls: ColumnType<number, number | undefined, number>;
  log_entries: ColumnType<number, number | undefined, number>;
}

export interface ApiKeyUsageDailyTable {
  api_key_id: ApiKeyId;
  day: ColumnType<string, string, string>;
  calls: ColumnType<number, number | undefined, number>;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  processed_at: Timestamp;
}

export interface StorageReportsTable {
  id: Generated<number>;
  checked_at: Timestamp;
  files_checked: number;
  files_missing: number;
  bytes_missing: number;
  incomplete_removed: number;
  orphans_removed: number;
}

export interface BlobDeletionsTable {
  storage_key: string;
  created_at: Timestamp;
}

export interface StatusSamplesTable {
  checked_at: Date;
  ok: boolean;
  storage_ok: boolean;
  scanner_ok: boolean | null;
}

export interface FileSharesTable {
  token: string;
  file_id: FileId;
  team_id: TeamId;
  expires_at: NullableTimestamp;
  password_hash: string | null;
  max_views: number | null;
  views: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
}

export type ImportSource = "discord_export" | "discord_bot" | "urls" | "fivemanage" | "zipline" | "folder";
export type ImportState = "draft" | "queued" | "running" | "finished" | "failed" | "cancelled";
export type ImportItemState = "pending" | "stored" | "duplicate" | "failed";

export interface ImportsTable {
  id: Generated<ImportId>;
  team_id: TeamId;
  server_id: ServerId;
  source: ImportSource;
  state: ColumnType<ImportState, ImportState | undefined, ImportState>;
  options: Json;
  /** A bot token or API key lent for this job only; null once the job ends. */
  secret: string | null;
  source_key: string | null;
  cursor: Json;
  total: ColumnType<number, number | undefined, number>;
  stored: ColumnType<number, number | undefined, number>;
  duplicates: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
  stored_bytes: ColumnType<number, number | undefined, number>;
  failures: Json;
  log_entries: ColumnType<number, number | undefined, number>;
  notes: ColumnType<string[], string | undefined, string>;
  error_code: string | null;
  error: string | null;
  created_by_user_id: UserId | null;
  created_by_key_id: ApiKeyId | null;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  updated_at: Timestamp;
  locked_until: NullableTimestamp;
  locked_by: string | null;
}

export interface ImportItemsTable {
  import_id: ImportId;
  seq: number;
  ref: string;
  filename: string | null;
  channel_id: string | null;
  attachment_id: string | null;
  message_id: string | null;
  author: string | null;
  posted_at: NullableTimestamp;
  size_bytes: number | null;
  state: ColumnType<ImportItemState, ImportItemState | undefined, ImportItemState>;
  cause: string | null;
  detail: string | null;
  file_id: FileId | null;
}

export interface DiscordAttachmentsTable {
  team_id: TeamId;
  channel_id: string;
  attachment_id: string;
  file_id: FileId;
  filename: string;
  posted_at: Date;
  created_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  team_invitations: TeamInvitationsTable;
  identities: IdentitiesTable;
  sessions: SessionsTable;
  auth_tokens: AuthTokensTable;
  servers: ServersTable;
  retention_rules: RetentionRulesTable;
  api_keys: ApiKeysTable;
  upload_grants: UploadGrantsTable;
  files: FilesTable;
  file_variants: FileVariantsTable;
  subscriptions: SubscriptionsTable;
  storage_addons: StorageAddonsTable;
  account_usage: AccountUsageTable;
  audit_logs: AuditLogsTable;
  usage_daily: UsageDailyTable;
  api_key_usage_daily: ApiKeyUsageDailyTable;
  stripe_events: StripeEventsTable;
  blob_deletions: BlobDeletionsTable;
  storage_reports: StorageReportsTable;
  file_reports: FileReportsTable;
  status_samples: StatusSamplesTable;
  file_shares: FileSharesTable;
  cases: CasesTable;
  case_files: CaseFilesTable;
  case_members: CaseMembersTable;
  log_datasets: LogDatasetsTable;
  log_entries: LogEntriesTable;
  log_saved_queries: LogSavedQueriesTable;
  log_forwards: LogForwardsTable;
  log_forward_queue: LogForwardQueueTable;
  log_alerts: LogAlertsTable;
  imports: ImportsTable;
  import_items: ImportItemsTable;
  discord_attachments: DiscordAttachmentsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Server = Selectable<ServersTable>;
export type ServerUpdate = Updateable<ServersTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type FileRecord = Selectable<FilesTable>;
export type NewFile = Insertable<FilesTable>;
export type LogAlert = Selectable<LogAlertsTable>;
export type LogAlertUpdate = Updateable<LogAlertsTable>;
