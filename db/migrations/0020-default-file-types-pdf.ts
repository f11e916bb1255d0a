import { sql, type Kysely } from "kysely";

// The lists as they were when this migration was written: a later catalogue change must not rewrite history.
const WAVE_2_DEFAULT = ["jpg", "png", "gif", "webp", "avif", "heic", "mp4", "webm", "mov", "avi", "mkv", "mp3", "ogg", "weba", "wav", "m4a", "aac"];
const NEW_DEFAULT = [...WAVE_2_DEFAULT, "pdf"];

/**
 * The default gains pdf, the spec's own default selection, which 0004's media-only default had lost (an
 * MDT attaching a report got 415). Servers whose list is exactly that default get the new one; a list
 * an owner chose, even one without pdf, is theirs and stays.
 */
export const defaultFileTypesPdf = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE servers ALTER COLUMN allowed_file_types SET DEFAULT ${sql.lit(`{${NEW_DEFAULT.join(",")}}`)}`.execute(db);
    await sql`UPDATE servers SET allowed_file_types = ${NEW_DEFAULT}::text[] WHERE allowed_file_types = ${WAVE_2_DEFAULT}::text[]`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE servers ALTER COLUMN allowed_file_types SET DEFAULT ${sql.lit(`{${WAVE_2_DEFAULT.join(",")}}`)}`.execute(db);
    await sql`UPDATE servers SET allowed_file_types = ${WAVE_2_DEFAULT}::text[] WHERE allowed_file_types = ${NEW_DEFAULT}::text[]`.execute(db);
  },
};
