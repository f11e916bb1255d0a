import { sql, type Kysely } from "kysely";

/**
 * What the file detail view and the abuse queue need: how a file arrived (the portal, a key, a
 * webhook, a presigned link) and which key sent it; a file an admin hid after a report (served
 * 451); the reports themselves; and e-mail changes confirmed at the new address.
 */
export const fileRecordsAndReports = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE files ADD COLUMN uploaded_via text NOT NULL DEFAULT 'api' CHECK (uploaded_via IN ('api', 'portal', 'webhook', 'presigned'))`.execute(db);
    await sql`ALTER TABLE files ADD COLUMN api_key_id uuid REFERENCES api_keys (id) ON DELETE SET NULL`.execute(db);
    await sql`ALTER TABLE files ADD COLUMN hidden_at timestamptz`.execute(db);
    // "Keep forever": exempt from the server's retention rules (never from the plan's own limit).
    await sql`ALTER TABLE files ADD COLUMN retention_exempt boolean NOT NULL DEFAULT false`.execute(db);
    // A ThumbHash placeholder of an image or a video poster (issue 16: instant images).
    await sql`ALTER TABLE files ADD COLUMN thumbhash text`.execute(db);
    // The Storage Manager's "largest first" and the gallery's name order, paged by keyset.
    await sql`CREATE INDEX files_user_size_idx ON files (user_id, size_bytes DESC, id)`.execute(db);
    await sql`CREATE INDEX files_user_name_idx ON files (user_id, lower(original_filename), id)`.execute(db);
    await sql`CREATE TABLE file_reports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      file_id uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
      reason text NOT NULL,
      details text NOT NULL DEFAULT '',
      contact text,
      reporter_ip text,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'hidden', 'dismissed')),
      created_at timestamptz NOT NULL DEFAULT now(),
      resolved_at timestamptz,
      resolved_by uuid REFERENCES users (id) ON DELETE SET NULL
    )`.execute(db);
    await sql`CREATE INDEX file_reports_open_idx ON file_reports (created_at) WHERE status = 'open'`.execute(db);
    await sql`CREATE INDEX file_reports_file_idx ON file_reports (file_id)`.execute(db);
    await sql`ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_purpose_check`.execute(db);
    await sql`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_purpose_check CHECK (purpose IN ('email_confirm', 'password_reset', 'email_change'))`.execute(db);
    await sql`ALTER TABLE auth_tokens ADD COLUMN new_email text`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DELETE FROM auth_tokens WHERE purpose = 'email_change'`.execute(db);
    await sql`ALTER TABLE auth_tokens DROP COLUMN IF EXISTS new_email`.execute(db);
    await sql`ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_purpose_check`.execute(db);
    await sql`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_purpose_check CHECK (purpose IN ('email_confirm', 'password_reset'))`.execute(db);
    await sql`DROP TABLE IF EXISTS file_reports`.execute(db);
    await sql`DROP INDEX IF EXISTS files_user_name_idx`.execute(db);
    await sql`DROP INDEX IF EXISTS files_user_size_idx`.execute(db);
    await sql`ALTER TABLE files DROP COLUMN IF EXISTS thumbhash`.execute(db);
    await sql`ALTER TABLE files DROP COLUMN IF EXISTS retention_exempt`.execute(db);
    await sql`ALTER TABLE files DROP COLUMN IF EXISTS hidden_at`.execute(db);
    await sql`ALTER TABLE files DROP COLUMN IF EXISTS api_key_id`.execute(db);
    await sql`ALTER TABLE files DROP COLUMN IF EXISTS uploaded_via`.execute(db);
  },
};
