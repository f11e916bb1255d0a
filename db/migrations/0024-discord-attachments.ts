import { sql, type Kysely } from "kysely";

/**
 * Rescued Discord attachments (docs/decisions/111): each is keyed by Discord's own
 * `(channel_id, attachment_id)` and points at the Stash file that holds its bytes, so
 * `/dc/attachments/{channel_id}/{attachment_id}/{filename}` serves it and a game database's links are
 * fixed by one REPLACE of the host. `filename` is the last segment of Discord's URL, which a request
 * must name; `posted_at` is the upload time Discord's snowflake id carries.
 */
export const discordAttachments = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE discord_attachments (
      team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
      channel_id text NOT NULL,
      attachment_id text NOT NULL,
      file_id uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
      filename text NOT NULL,
      posted_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (team_id, channel_id, attachment_id)
    )`.execute(db);
    await sql`CREATE INDEX discord_attachments_lookup_idx ON discord_attachments (channel_id, attachment_id)`.execute(db);
    await sql`CREATE INDEX discord_attachments_file_idx ON discord_attachments (file_id)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE IF EXISTS discord_attachments`.execute(db);
  },
};
