import type { Db } from "../../../db/index";
import { bumpUsage } from "~/services/api-keys/key-usage.server";
import type { Logger } from "~/services/platform/logger.server";
import { PeriodicFlush } from "~/services/platform/periodic-flush.server";
import { DAY_MS } from "~/lib/durations";
import type { ServerId } from "~/lib/ids";

const FLUSH_INTERVAL_MS = 5_000;

interface Pending {
  serverId: ServerId;
  day: string;
  downloads: number;
  bytes: number;
}

/**
 * Download counters for usage_daily. A database write per file request would cost more than
 * serving a small file, so counts gather in memory and go out as one UPSERT per server and day
 * every few seconds and on shutdown. A crash loses at most those seconds of counts.
 */
export class DownloadCounter extends PeriodicFlush {
  private pending = new Map<string, Pending>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    intervalMs = FLUSH_INTERVAL_MS,
  ) {
    super(intervalMs);
  }

  /** The UTC day counts are gathered for, and when it ends (a date string per request would cost more than counting). */
  private day = { text: "", endsAt: 0 };

  record(serverId: ServerId, bytes: number): void {
    const now = Date.now();
    if (now >= this.day.endsAt || now < this.day.endsAt - DAY_MS) {
      const text = new Date(now).toISOString().slice(0, 10);
      this.day = { text, endsAt: Date.parse(text) + DAY_MS };
    }
    const day = this.day.text;
    const key = `${serverId}|${day}`;
    const entry = this.pending.get(key);
    if (entry) {
      entry.downloads += 1;
      entry.bytes += bytes;
    } else {
      this.pending.set(key, { serverId, day, downloads: 1, bytes });
    }
  }

  protected async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    for (const entry of batch) {
      try {
        await bumpUsage(this.db, entry.serverId, { downloads: entry.downloads, download_bytes: entry.bytes }, new Date(`${entry.day}T12:00:00Z`));
      } catch (error) {
        // A server deleted in the meantime has no row to count against; nothing else to do.
        this.logger.warn({ err: error, serverId: entry.serverId }, "could not record download usage");
      }
    }
  }
}
