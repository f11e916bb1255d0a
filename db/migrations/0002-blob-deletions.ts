import { sql, type Kysely } from "kysely";

/**
 * Blobs whose rows are gone but whose bytes may not be: a file's keys are queued in the
 * transaction that deletes its row and unqueued once the store has deleted them, so a crash
 * in between leaves a queue entry for the next sweep instead of an orphan nobody knows about.
 */
export const blobDeletions = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE blob_deletions (
      storage_key text PRIMARY KEY,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE IF EXISTS blob_deletions`.execute(db);
  },
};
