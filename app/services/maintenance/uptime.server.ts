import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { checkHealth } from "~/services/maintenance/health.server";
import { DAY_MS } from "~/lib/durations";

export const SAMPLE_EVERY_MINUTES = 5;
export const UPTIME_DAYS = 30;
const KEEP_DAYS = 90;
const SAMPLE_MS = SAMPLE_EVERY_MINUTES * 60_000;

/**
 * One health sample, stored under its five-minute slot (so two instances sampling the same slot
 * keep one row). Written only while the database answers: an outage leaves a gap, read as down.
 */
export async function recordStatusSample(ctx: Parameters<typeof checkHealth>[0], now: Date = new Date()): Promise<void> {
  const report = await checkHealth(ctx);
  const slot = new Date(Math.floor(now.getTime() / SAMPLE_MS) * SAMPLE_MS);
  await ctx.db
    .insertInto("status_samples")
    .values({ checked_at: slot, ok: report.status === "ok", storage_ok: report.storage.ok, scanner_ok: report.scanner?.ok ?? null })
    // Two instances sampling one slot: the slot is up only if both saw it up.
    .onConflict((oc) => oc.column("checked_at").doUpdateSet({ ok: sql<boolean>`status_samples.ok AND excluded.ok` }))
    .execute();
  await ctx.db.deleteFrom("status_samples").where("checked_at", "<", new Date(now.getTime() - KEEP_DAYS * DAY_MS)).execute();
}

export interface UptimeDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** Share of the day's five-minute slots that were up, 0–100; null before sampling began. */
  percent: number | null;
}

export interface UptimeHistory {
  days: UptimeDay[];
  /** Over the whole window, from the first sample; null with no samples. */
  percent: number | null;
}

/** Uptime per UTC day for the last `days` days: up slots over the slots that have passed since sampling began. */
export async function uptimeHistory(db: Db, now: Date = new Date(), days = UPTIME_DAYS): Promise<UptimeHistory> {
  const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const windowStart = todayStart - (days - 1) * DAY_MS;
  const rows = await db.selectFrom("status_samples").select(["checked_at", "ok"]).where("checked_at", ">=", new Date(windowStart)).orderBy("checked_at").execute();
  const first = rows[0] ? new Date(rows[0].checked_at).getTime() : null;
  const upByDay = new Map<number, number>();
  for (const row of rows) {
    if (!row.ok) continue;
    const t = new Date(row.checked_at).getTime();
    const day = t - ((t - windowStart) % DAY_MS);
    upByDay.set(day, (upByDay.get(day) ?? 0) + 1);
  }
  let upTotal = 0;
  let expectedTotal = 0;
  const out: UptimeDay[] = [];
  for (let i = 0; i < days; i++) {
    const start = windowStart + i * DAY_MS;
    const from = first === null ? null : Math.max(start, first);
    const to = Math.min(start + DAY_MS, now.getTime());
    const expected = from === null || to <= from ? 0 : Math.max(1, Math.ceil((to - from) / SAMPLE_MS));
    const up = Math.min(upByDay.get(start) ?? 0, expected);
    upTotal += up;
    expectedTotal += expected;
    out.push({ day: new Date(start).toISOString().slice(0, 10), percent: expected ? (up / expected) * 100 : null });
  }
  return { days: out, percent: expectedTotal ? (upTotal / expectedTotal) * 100 : null };
}
