import { sql, type Kysely } from "kysely";

/**
 * Evidence cases: a numbered case of a server collects files; while it is open its files are kept
 * whatever the retention rules say and cannot be deleted. Who added each file, and when, is kept.
 */
export const evidenceCases = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE cases (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      server_id text NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      number text NOT NULL,
      title text NOT NULL,
      notes text NOT NULL DEFAULT '',
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
      created_at timestamptz NOT NULL DEFAULT now(),
      closed_at timestamptz,
      -- Signs exported manifests; never leaves the database, so only Stash can say a manifest is genuine.
      signing_key text NOT NULL,
      UNIQUE (server_id, number)
    )`.execute(db);
    await sql`CREATE TABLE case_files (
      case_id uuid NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
      file_id uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
      added_at timestamptz NOT NULL DEFAULT now(),
      added_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      added_by_key_id uuid REFERENCES api_keys (id) ON DELETE SET NULL,
      PRIMARY KEY (case_id, file_id)
    )`.execute(db);
    await sql`CREATE INDEX case_files_file_idx ON case_files (file_id)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE IF EXISTS case_files`.execute(db);
    await sql`DROP TABLE IF EXISTS cases`.execute(db);
  },
};
