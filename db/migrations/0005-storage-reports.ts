import { sql, type Kysely } from "kysely";

/**
 * What each storage reconcile found, newest first: the admin dashboard and /metrics report files
 * whose bytes are gone from the blob store without every instance re-checking the whole store.
 */
export const storageReports = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE storage_reports (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      checked_at timestamptz NOT NULL DEFAULT now(),
      files_checked integer NOT NULL,
      files_missing integer NOT NULL,
      bytes_missing bigint NOT NULL,
      incomplete_removed integer NOT NULL,
      orphans_removed integer NOT NULL
    )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE IF EXISTS storage_reports`.execute(db);
  },
};
