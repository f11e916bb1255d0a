import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { isDatabaseUnavailable } from "../../../db/connection-errors";
import { formatCount } from "~/lib/format";
import { PLANS, type Tier } from "~/lib/plans";
import { bumpUsage, usageDay } from "~/services/api-keys/key-usage.server";
import type { Logger } from "~/services/platform/logger.server";
import { PeriodicFlush } from "~/services/platform/periodic-flush.server";
import { DomainError } from "~/services/platform/domain-error.server";
import type { LogTarget } from "~/services/logs/log-ingest.server";
import type { ServerId, TeamId } from "~/lib/ids";

/** How long a team's monthly count read from the database answers volume checks on this instance. */
const MONTH_COUNT_TTL_MS = 1_000;
const FLUSH_INTERVAL_MS = 1_000;

interface PendingCount {
  serverId: ServerId;
  teamId: TeamId;
  /** A moment of the UTC day the entries count toward. */
  at: Date;
  count: number;
}

/** Entries the team sent this calendar month (UTC), from the daily counters. */
export async function logEntriesThisMonth(db: Db, teamId: TeamId, now: Date = new Date()): Promise<number> {
  const monthStart = `${now.toISOString().slice(0, 7)}-01`;
  const row = await db
    .selectFrom("usage_daily as u")
    .innerJoin("servers as s", "s.id", "u.server_id")
    .select(sql<string>`coalesce(sum(u.log_entries), 0)`.as("n"))
    .where("s.team_id", "=", teamId)
    .where("u.day", ">=", monthStart)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function volumeRefusal(tier: Tier, used: number): DomainError {
  const plan = PLANS[tier];
  return new DomainError(
    "rate_limited",
    `This team has sent ${formatCount(used, "log entry", "log entries")} this month; the ${plan.name} plan takes ${plan.logEntriesPerMonth.toLocaleString("en-GB")}. Upgrade or wait for the 1st.`,
  );
}

/**
 * The plan's monthly log volume, checked and counted without a statement per request: each
 * instance reads a team's month from the daily counters at most once a second, adds what it has
 * accepted since, and writes its per-server daily counts once a second (and on close) — an upsert
 * per server and day that every ingest request used to take, and wait on, itself (decision 081).
 * Across instances a team can run past its volume by about a second of traffic; a crash loses at
 * most the last second of counts, never an entry.
 */
export class LogVolume extends PeriodicFlush {
  private pending = new Map<string, PendingCount>();
  /** Accepted here and not yet in the daily counters, per team (reserved before the insert). */
  private unwritten = new Map<string, number>();
  private months = new Map<string, { month: string; n: number; at: number; generation: number }>();
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    intervalMs = FLUSH_INTERVAL_MS,
  ) {
    super(intervalMs);
  }

  private async storedThisMonth(teamId: TeamId, now: Date): Promise<number> {
    const month = now.toISOString().slice(0, 7);
    const cached = this.months.get(teamId);
    if (cached && cached.month === month && cached.generation === this.generation && now.getTime() - cached.at < MONTH_COUNT_TTL_MS) return cached.n;
    const generation = this.generation;
    const n = await logEntriesThisMonth(this.db, teamId, now);
    // A write that finished meanwhile may or may not be in `n`: use it once, keep it only if none did.
    if (generation === this.generation) this.months.set(teamId, { month, n, at: now.getTime(), generation });
    return n;
  }

  /**
   * Takes `count` entries out of the team's month, or throws the 429 when they do not fit (nothing
   * taken). Call `commit` once they are stored, `release` if they are not.
   */
  async reserve(target: LogTarget, count: number, now: Date = new Date()): Promise<void> {
    const stored = await this.storedThisMonth(target.teamId, now);
    const used = stored + (this.unwritten.get(target.teamId) ?? 0);
    if (used + count > PLANS[target.tier].logEntriesPerMonth) throw volumeRefusal(target.tier, used);
    this.unwritten.set(target.teamId, (this.unwritten.get(target.teamId) ?? 0) + count);
  }

  /** Gives back entries reserved here: refused after the reservation, or now in the daily counters. */
  release(teamId: TeamId, count: number): void {
    const left = (this.unwritten.get(teamId) ?? 0) - count;
    if (left > 0) this.unwritten.set(teamId, left);
    else this.unwritten.delete(teamId);
  }

  /** Counts stored entries toward today's figure of their server, written with the next flush. */
  commit(target: Pick<LogTarget, "serverId" | "teamId">, count: number, at: Date = new Date()): void {
    const key = `${target.serverId}|${usageDay(at)}`;
    const entry = this.pending.get(key);
    if (entry) entry.count += count;
    else this.pending.set(key, { serverId: target.serverId, teamId: target.teamId, at, count });
  }

  protected async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const written: PendingCount[] = [];
    for (const one of batch) {
      try {
        await bumpUsage(this.db, one.serverId, { log_entries: one.count }, one.at);
        written.push(one);
      } catch (error) {
        if (isDatabaseUnavailable(error)) {
          // Kept for the next flush: the entries are stored, so their count must be too.
          this.commit(one, one.count, one.at);
        } else {
          // The server was deleted since: its counters went with it.
          this.logger.warn({ err: error, serverId: one.serverId }, "could not count log entries");
          written.push(one);
        }
      }
    }
    this.generation += 1;
    for (const one of written) this.release(one.teamId, one.count);
  }
}
