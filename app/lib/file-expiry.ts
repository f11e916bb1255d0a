import { EXPIRY_WARNING_DAYS } from "~/lib/plans";
import { DAY_MS } from "~/lib/durations";

/** True when a file will be deleted by retention within EXPIRY_WARNING_DAYS (the gallery's flag). */
export function isExpiringSoon(expiresAt: Date | string | null | undefined, now: Date = new Date()): boolean {
  if (!expiresAt) return false;
  const at = new Date(expiresAt).getTime();
  return at - now.getTime() <= EXPIRY_WARNING_DAYS * DAY_MS;
}

/** "Expires in 2 days" style label for a flagged file. */
export function expiryLabel(expiresAt: Date | string, now: Date = new Date()): string {
  const days = Math.ceil((new Date(expiresAt).getTime() - now.getTime()) / DAY_MS);
  if (days <= 0) return "Expires today";
  return days === 1 ? "Expires in 1 day" : `Expires in ${days} days`;
}
