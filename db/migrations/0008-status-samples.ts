import { sql, type Kysely } from "kysely";

/** A health sample every five minutes, for the uptime history on /status; missing samples count as down. */
export const statusSamples = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE status_samples (
      checked_at timestamptz PRIMARY KEY,
      ok boolean NOT NULL,
      storage_ok boolean NOT NULL,
      scanner_ok boolean
    )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE IF EXISTS status_samples`.execute(db);
  },
};
