import type { Db } from "../../../db/index";

/** Rows per DELETE: short statements, so sign-ins and sign-outs never queue behind a long purge. */
const BATCH = 1000;

/**
 * Deletes every session past its expiry (a session is only deleted when presented otherwise, and most
 * expired ones never are). Each batch is one DELETE over the `expires_at` index; `SKIP LOCKED` lets
 * several instances purge at once, each taking rows the others have not, without waiting or deleting
 * a row twice. Returns how many this call deleted.
 */
export async function purgeExpiredSessions(db: Db, now: Date = new Date()): Promise<number> {
  let deleted = 0;
  for (;;) {
    const result = await db
      .deleteFrom("sessions")
      .where("id", "in", (eb) => eb.selectFrom("sessions").select("id").where("expires_at", "<=", now).limit(BATCH).forUpdate().skipLocked())
      .executeTakeFirst();
    const count = Number(result.numDeletedRows);
    deleted += count;
    if (count < BATCH) return deleted;
  }
}
