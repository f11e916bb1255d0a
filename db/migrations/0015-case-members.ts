import { sql, type Kysely } from "kysely";

/**
 * The members of a team who may see a case. A case without rows here is visible to everyone in its
 * team who may view media; with rows, only to them and to the team's owners and admins.
 */
export const caseMembers = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE case_members (
      case_id uuid NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      PRIMARY KEY (case_id, user_id)
    )`.execute(db);
    await sql`CREATE INDEX case_members_user_idx ON case_members (user_id)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE IF EXISTS case_members`.execute(db);
  },
};
