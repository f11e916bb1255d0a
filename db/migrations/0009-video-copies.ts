import { sql, type Kysely } from "kysely";

/**
 * MP4 copies of videos: `mp4_wanted_at` queues a file for the background encode (at upload on paid
 * plans, on first `?format=mp4` request on free ones); `mp4_failed_at` stops retries of a file
 * ffmpeg cannot convert within the size cap. The copy itself is a file_variants row, `copy.mp4`.
 */
export const videoCopies = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE files ADD COLUMN mp4_wanted_at timestamptz`.execute(db);
    await sql`ALTER TABLE files ADD COLUMN mp4_failed_at timestamptz`.execute(db);
    await sql`CREATE INDEX files_mp4_wanted_idx ON files (mp4_wanted_at) WHERE mp4_wanted_at IS NOT NULL`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX IF EXISTS files_mp4_wanted_idx`.execute(db);
    await sql`ALTER TABLE files DROP COLUMN IF EXISTS mp4_failed_at`.execute(db);
    await sql`ALTER TABLE files DROP COLUMN IF EXISTS mp4_wanted_at`.execute(db);
  },
};
