/**
 * The one catalogue of error codes (docs/decisions/071). Services throw a DomainError with one of
 * these; app/http maps each to its HTTP status in one table; the script API's JSON answers and the
 * OpenAPI description list the same codes. Shared with the browser, so it holds names only.
 */
export const ERROR_CODES = [
  // Requests a script or form got wrong
  "invalid_request",
  "missing_file",
  "invalid_metadata",
  "invalid_transform",
  "method_not_allowed",
  // Who is calling
  "missing_api_key",
  "invalid_api_key",
  "not_authenticated",
  "api_key_expired",
  "invalid_credentials",
  "email_not_confirmed",
  "invalid_signature",
  // What the caller may do
  "permission_denied",
  "server_mismatch",
  "server_inactive",
  "invalid_upload_url",
  "url_not_allowed",
  "role_change_refused",
  // What exists
  "not_found",
  "email_taken",
  "discord_account_conflict",
  // Limits
  "file_too_large",
  "request_too_large",
  "quota_exceeded",
  "server_quota_exceeded",
  "rate_limited",
  // Media the pipeline refuses
  "unsupported_file_type",
  "invalid_image",
  "not_an_image",
  "image_too_large",
  "too_many_frames",
  "image_corrupt",
  "file_missing",
  "file_infected",
  "file_hidden",
  "file_in_open_case",
  // Imports
  "invalid_export",
  "unsafe_archive",
  "import_in_progress",
  "discord_token_invalid",
  "discord_intent_missing",
  // Billing
  "plan_unavailable",
  "billing_not_configured",
  "payments_disabled",
  // Parts of the system that are down
  "payment_provider_error",
  "discord_unavailable",
  "source_unavailable",
  "database_unavailable",
  "insufficient_storage",
  "storage_unavailable",
  "scanner_unavailable",
  "internal_error",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
