import { sql, type Kysely } from "kysely";

/**
 * Why a video's MP4 copy failed (`mp4_failure`), shown on the file's page. The copies that failed
 * before the encoder aimed at a bitrate — most short phone clips, whose copies came out past the size
 * cap — are queued again for it.
 */
export const mp4CopyFailures = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE files ADD COLUMN mp4_failure text`.execute(db);
    await sql`UPDATE files SET mp4_failed_at = NULL, mp4_wanted_at = now() WHERE mp4_failed_at IS NOT NULL`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE files DROP COLUMN IF EXISTS mp4_failure`.execute(db);
  },
};
