import { sql, type Kysely } from "kysely";

/**
 * The audit trail an owner reads at /audit: who did it (the signed-in person; key calls carry
 * api_key_id already) and what it was done to. Newest first reads audit_logs_user_created_idx.
 */
export const auditTrail = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE audit_logs
      ADD COLUMN actor_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      ADD COLUMN target text`.execute(db);
    // The trail outlives what it names: deleting a server kept none of its entries, not even its own deletion.
    await sql`ALTER TABLE audit_logs DROP CONSTRAINT audit_logs_server_id_fkey`.execute(db);
    await sql`ALTER TABLE audit_logs ADD CONSTRAINT audit_logs_server_id_fkey FOREIGN KEY (server_id) REFERENCES servers (id) ON DELETE SET NULL`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE audit_logs DROP CONSTRAINT audit_logs_server_id_fkey`.execute(db);
    await sql`ALTER TABLE audit_logs ADD CONSTRAINT audit_logs_server_id_fkey FOREIGN KEY (server_id) REFERENCES servers (id) ON DELETE CASCADE`.execute(db);
    await sql`ALTER TABLE audit_logs DROP COLUMN IF EXISTS actor_user_id, DROP COLUMN IF EXISTS target`.execute(db);
  },
};
