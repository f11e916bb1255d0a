import { sql, type Kysely } from "kysely";

/**
 * Import jobs (docs/decisions/110): a team brings its history from Discord or another host. `imports`
 * holds one job — its source, state, counts, what the job lent (a bot token or an API key, cleared when
 * it ends) and the cursor a restarted instance resumes from; `import_items` one row per file to bring,
 * whose state is what the counts and the report are made from. One job at a time per team (the
 * partial unique index). Files that came through an import are marked `uploaded_via = 'import'`, and
 * a team's files are found by their bytes' SHA-256 (the same bytes are stored once).
 */
export const imports = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE files DROP CONSTRAINT IF EXISTS files_uploaded_via_check`.execute(db);
    await sql`ALTER TABLE files ADD CONSTRAINT files_uploaded_via_check CHECK (uploaded_via IN ('api', 'portal', 'webhook', 'presigned', 'import'))`.execute(db);
    await sql`CREATE INDEX files_team_sha256_idx ON files (team_id, sha256)`.execute(db);
    await sql`CREATE TABLE imports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
      server_id text NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
      source text NOT NULL CHECK (source IN ('discord_export', 'discord_bot', 'urls', 'fivemanage', 'zipline', 'folder')),
      state text NOT NULL DEFAULT 'queued' CHECK (state IN ('draft', 'queued', 'running', 'finished', 'failed', 'cancelled')),
      options jsonb NOT NULL DEFAULT '{}',
      -- A bot token or API key lent for this job only: set to NULL when the job ends, whatever the end.
      secret text,
      -- The uploaded export or archive in the blob store, while the job needs it.
      source_key text,
      cursor jsonb NOT NULL DEFAULT '{}',
      total integer NOT NULL DEFAULT 0,
      stored integer NOT NULL DEFAULT 0,
      duplicates integer NOT NULL DEFAULT 0,
      failed integer NOT NULL DEFAULT 0,
      stored_bytes bigint NOT NULL DEFAULT 0,
      failures jsonb NOT NULL DEFAULT '{}',
      log_entries integer NOT NULL DEFAULT 0,
      notes jsonb NOT NULL DEFAULT '[]',
      error_code text,
      error text,
      created_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      created_by_key_id uuid REFERENCES api_keys (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      -- The instance working on it holds it until this time, renewed while it works.
      locked_until timestamptz,
      locked_by text
    )`.execute(db);
    await sql`CREATE UNIQUE INDEX imports_one_active_per_team ON imports (team_id) WHERE state IN ('draft', 'queued', 'running')`.execute(db);
    await sql`CREATE INDEX imports_team_created_idx ON imports (team_id, created_at DESC)`.execute(db);
    await sql`CREATE INDEX imports_waiting_idx ON imports (created_at) WHERE state IN ('queued', 'running')`.execute(db);
    await sql`CREATE TABLE import_items (
      import_id uuid NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
      seq integer NOT NULL,
      -- The URL as given, or the entry's path inside the uploaded archive.
      ref text NOT NULL,
      filename text,
      channel_id text,
      attachment_id text,
      message_id text,
      author text,
      posted_at timestamptz,
      size_bytes bigint,
      state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'stored', 'duplicate', 'failed')),
      cause text,
      detail text,
      file_id uuid REFERENCES files (id) ON DELETE SET NULL,
      PRIMARY KEY (import_id, seq)
    )`.execute(db);
    await sql`CREATE INDEX import_items_pending_idx ON import_items (import_id, seq) WHERE state = 'pending'`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE IF EXISTS import_items`.execute(db);
    await sql`DROP TABLE IF EXISTS imports`.execute(db);
    await sql`DROP INDEX IF EXISTS files_team_sha256_idx`.execute(db);
    await sql`ALTER TABLE files DROP CONSTRAINT IF EXISTS files_uploaded_via_check`.execute(db);
    await sql`ALTER TABLE files ADD CONSTRAINT files_uploaded_via_check CHECK (uploaded_via IN ('api', 'portal', 'webhook', 'presigned'))`.execute(db);
  },
};
