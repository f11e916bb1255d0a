import { sql, type Kysely } from "kysely";

/** The periodic purge of expired sessions deletes by `expires_at`; this keeps it an index range scan. */
export const sessionExpiryIndex = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE INDEX sessions_expires_at_idx ON sessions (expires_at)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX IF EXISTS sessions_expires_at_idx`.execute(db);
  },
};
