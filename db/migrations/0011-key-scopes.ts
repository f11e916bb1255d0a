import { sql, type Kysely } from "kysely";

/**
 * Scoped keys: the categories a key may write (slugs, `phone_*` for a prefix), its own file size
 * limit and the client addresses (IPs or CIDR ranges) it may be used from. NULL means no limit.
 */
export const keyScopes = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE api_keys
      ADD COLUMN allowed_categories text[],
      ADD COLUMN max_file_bytes bigint CHECK (max_file_bytes IS NULL OR max_file_bytes > 0),
      ADD COLUMN allowed_ips text[]`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE api_keys DROP COLUMN IF EXISTS allowed_categories, DROP COLUMN IF EXISTS max_file_bytes, DROP COLUMN IF EXISTS allowed_ips`.execute(db);
  },
};
