import { GB } from "~/lib/plans";

/** GB to 2 decimals, as the stat cards show it. */
export function formatGb(bytes: number): string {
  return (bytes / GB).toFixed(2);
}

const UNITS = ["Bytes", "KB", "MB", "GB", "TB"];

export function formatBytes(bytes: number): string {
  if (!bytes) return "0 Bytes";
  const i = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${Number((bytes / 1024 ** i).toFixed(2))} ${UNITS[i]}`;
}

/** A date the same on the server and in the browser, so hydration never disagrees. */
export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return "Never";
  const date = typeof value === "string" ? new Date(value) : value;
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "Never";
  const date = typeof value === "string" ? new Date(value) : value;
  return date.toLocaleString("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" }) + " UTC";
}

export function hostnameOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}
