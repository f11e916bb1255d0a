/** Size formatting shared by the gallery, upload and storage screens (1 KB = 1024 bytes). */

const KB = 1024;
const MB = KB * 1024;

/** Gallery cards: megabytes with one decimal, e.g. "2.4 MB". */
export function formatMegabytes(bytes: number): string {
  return `${(Math.max(0, bytes) / MB).toFixed(1)} MB`;
}

const UNITS = ["Bytes", "KB", "MB", "GB"] as const;

/** Storage manager: Bytes, KB, MB or GB with up to two decimals, e.g. "1.5 KB", "0 Bytes". */
export function formatBytes(bytes: number): string {
  const value = Math.max(0, bytes);
  if (value === 0) return "0 Bytes";
  const exponent = Math.min(Math.floor(Math.log(value) / Math.log(KB)), UNITS.length - 1);
  const scaled = value / KB ** exponent;
  return `${Number.parseFloat(scaled.toFixed(2))} ${UNITS[exponent]}`;
}

/** Share of the quota used, as a percentage with two decimals; 0 when there is no quota. */
export function percentUsed(usedBytes: number, quotaBytes: number): number {
  if (quotaBytes <= 0) return 0;
  return Math.round((Math.max(0, usedBytes) / quotaBytes) * 10_000) / 100;
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
