import { sql, type Kysely } from "kysely";

/** Share links with limits (Zipline users ask for these): expiry, a password, a view count. */
export const fileShares = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE file_shares (
      token text PRIMARY KEY,
      file_id uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      expires_at timestamptz,
      password_hash text,
      max_views integer CHECK (max_views IS NULL OR max_views > 0),
      views integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
    await sql`CREATE INDEX file_shares_file_idx ON file_shares (file_id)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE IF EXISTS file_shares`.execute(db);
  },
};
