/**
 * The one way every screen, chart, CLI line and e-mail writes sizes, counts, shares of a quota and dates
 * (docs/decisions/072). Sizes are 1024-based as the spec says (1 KB = 1024 bytes) and pick their unit,
 * so 10 KB never reads "0.0 MB" and 1.65 MB never reads "0.00 GB". Dates are en-GB in UTC, so the
 * server and the browser render the same text and hydration never disagrees.
 */

const UNITS = ["B", "KB", "MB", "GB", "TB"] as const;
const STEP = 1024;

/** "0 B", "512 B", "1.5 KB", "2.44 MB", "5 GB": at most `decimals` places (the spec's 2; 1 on gallery cards), trailing zeros dropped. */
export function formatBytes(bytes: number, decimals = 2): string {
  const value = Math.max(0, bytes);
  if (value < STEP) return `${Math.round(value)} B`;
  let exponent = Math.min(Math.floor(Math.log(value) / Math.log(STEP)), UNITS.length - 1);
  // 1023.999 KB rounds to "1024 KB"; say "1 MB" instead.
  if (Number((value / STEP ** exponent).toFixed(decimals)) >= STEP && exponent < UNITS.length - 1) exponent += 1;
  return `${Number((value / STEP ** exponent).toFixed(decimals))} ${UNITS[exponent]}`;
}

/** Share of the quota used, in percent with two decimals; 0 when there is no quota. */
export function percentUsed(usedBytes: number, quotaBytes: number): number {
  if (quotaBytes <= 0) return 0;
  return Math.round((Math.max(0, usedBytes) / quotaBytes) * 10_000) / 100;
}

/** "0.03%", "92%": a percentage as the quota figures print it. */
export function formatPercent(percent: number): string {
  return `${Number(percent.toFixed(2))}%`;
}

/** Width for a usage bar: never past 100% even when usage exceeds the quota. */
export function barPercent(percent: number): number {
  return Math.min(100, Math.max(0, percent));
}

/** The spec's low-storage threshold: the warning shows above 90% used. */
export const LOW_STORAGE_PERCENT = 90;

export function isStorageLow(percent: number): boolean {
  return percent > LOW_STORAGE_PERCENT;
}

/** "1 file", "12,400 files": a count with its noun, thousands separated. */
export function formatCount(count: number, noun: string, plural = `${noun}s`): string {
  return `${count.toLocaleString("en-GB")} ${count === 1 ? noun : plural}`;
}

type DateInput = Date | string | null | undefined;

const DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const DATE_TIME = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

/** "26 Nov 2026"; "Never" for no date. */
export function formatDate(value: DateInput): string {
  return value ? DATE.format(new Date(value)) : "Never";
}

/** "26 Nov 2026, 04:42 UTC"; "Never" for no date. */
export function formatDateTime(value: DateInput): string {
  return value ? `${DATE_TIME.format(new Date(value))} UTC` : "Never";
}

/** A clip's length: "0:07", "1:05", "1:02:03". */
export function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
