import { sql, type Kysely } from "kysely";

// The lists as they were when this migration was written: a later catalogue change must not rewrite history.
const OLD_DEFAULT = ["jpg", "jpeg", "png", "gif", "mp4", "pdf"];
const NEW_DEFAULT = ["jpg", "png", "gif", "webp", "avif", "heic", "mp4", "webm", "mov", "avi", "mkv", "mp3", "ogg", "weba", "wav", "m4a", "aac"];

/**
 * Servers still on the old default (which refused WebP, WebM and every audio type FiveM phones
 * send) get the catalogue's default; servers whose owner chose a list keep it.
 */
export const defaultFileTypes = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE servers ALTER COLUMN allowed_file_types SET DEFAULT ${sql.lit(`{${NEW_DEFAULT.join(",")}}`)}`.execute(db);
    await sql`UPDATE servers SET allowed_file_types = ${NEW_DEFAULT}::text[] WHERE allowed_file_types = ${OLD_DEFAULT}::text[]`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE servers ALTER COLUMN allowed_file_types SET DEFAULT ${sql.lit(`{${OLD_DEFAULT.join(",")}}`)}`.execute(db);
    await sql`UPDATE servers SET allowed_file_types = ${OLD_DEFAULT}::text[] WHERE allowed_file_types = ${NEW_DEFAULT}::text[]`.execute(db);
  },
};
