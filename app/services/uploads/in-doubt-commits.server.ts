import type { Db } from "../../../db/index";
import type { BlobStore } from "../../../storage/blob-store";
import type { Logger } from "~/services/platform/logger.server";

/** A stored upload's blobs: the file's key and those of its variants, committed or not together. */
export interface UploadBlobs {
  storageKey: string;
  variantKeys: string[];
}

/** Asked again every 2 s for a minute, then every 15 s; after 15 minutes the hourly orphan sweep is the one to ask. */
const FIRST_MINUTE_EVERY_MS = 2_000;
const THEN_EVERY_MS = 15_000;
const GIVE_UP_AFTER_MS = 15 * 60_000;

/**
 * Uploads whose commit lost its connection before PostgreSQL answered: the rows may exist, and a row
 * must never lose its blob, so their blobs are deleted once the database answers again and says the
 * rows do not exist — seconds after it is back instead of at the next hourly orphan sweep. One per
 * instance, on the app context; `close` stops asking (the orphan sweep remains).
 */
export class InDoubtCommits {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly logger: Logger,
  ) {}

  settle(uploads: UploadBlobs[]): void {
    const started = Date.now();
    const ask = async () => {
      if (this.closed) return;
      try {
        await this.resolve(uploads);
      } catch (error) {
        const waited = Date.now() - started;
        if (waited > GIVE_UP_AFTER_MS) {
          this.logger.warn({ err: error, keys: uploads.map((u) => u.storageKey) }, "upload commit still in doubt; left to the orphan sweep");
          return;
        }
        this.later(ask, waited < 60_000 ? FIRST_MINUTE_EVERY_MS : THEN_EVERY_MS);
      }
    };
    this.later(ask, FIRST_MINUTE_EVERY_MS);
  }

  private later(run: () => Promise<void>, ms: number) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void run();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private async resolve(uploads: UploadBlobs[]): Promise<void> {
    const keys = uploads.map((u) => u.storageKey);
    const rows = await this.db.selectFrom("files").select("storage_key").where("storage_key", "in", keys).execute();
    const committed = new Set(rows.map((r) => r.storage_key));
    const lost = uploads.filter((u) => !committed.has(u.storageKey));
    await Promise.all(lost.flatMap((u) => [u.storageKey, ...u.variantKeys]).map((key) => this.blobs.delete(key)));
    this.logger.info({ committed: [...committed], deleted: lost.map((u) => u.storageKey) }, "upload commit in doubt settled");
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
