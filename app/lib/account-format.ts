const GB = 1024 ** 3;

/** Bytes as GB with two decimals (bytes / 1024^3), e.g. "1.50 GB". */
export function formatGb(bytes: number): string {
  return `${(bytes / GB).toFixed(2)} GB`;
}

export function formatDate(iso: string | Date): string {
  return new Date(iso).toLocaleDateString("en-GB", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
}
