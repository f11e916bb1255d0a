import { sql, type Kysely } from "kysely";

/**
 * Calls per key and day, for the key list's "calls in 30 days": counting audit rows missed every
 * call kept out of the trail (log ingest). Filled from the audit rows there are.
 */
export const apiKeyUsage = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE api_key_usage_daily (
      api_key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
      day date NOT NULL,
      calls integer NOT NULL DEFAULT 0,
      PRIMARY KEY (api_key_id, day)
    )`.execute(db);
    await sql`INSERT INTO api_key_usage_daily (api_key_id, day, calls)
      SELECT a.api_key_id, (a.created_at AT TIME ZONE 'UTC')::date, count(*)
      FROM audit_logs a JOIN api_keys k ON k.id = a.api_key_id
      GROUP BY 1, 2`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE IF EXISTS api_key_usage_daily`.execute(db);
  },
};
