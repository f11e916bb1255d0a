import { sql, type Kysely } from "kysely";

/** Searches a team saves on the Logs page, by name. */
export const logSavedQueries = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE log_saved_queries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
      name text NOT NULL,
      query text NOT NULL,
      created_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (team_id, name)
    )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE IF EXISTS log_saved_queries`.execute(db);
  },
};
