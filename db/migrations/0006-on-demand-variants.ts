import { sql, type Kysely } from "kysely";

/**
 * Variants made on request (`/f/…?w=`) count toward their owner's usage and are capped per file,
 * least recently used first; those made at upload (gallery thumbnail, video poster) are neither.
 */
export const onDemandVariants = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE file_variants ADD COLUMN on_demand boolean NOT NULL DEFAULT false`.execute(db);
    await sql`ALTER TABLE file_variants ADD COLUMN last_used_at timestamptz NOT NULL DEFAULT now()`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE file_variants DROP COLUMN IF EXISTS last_used_at`.execute(db);
    await sql`ALTER TABLE file_variants DROP COLUMN IF EXISTS on_demand`.execute(db);
  },
};
