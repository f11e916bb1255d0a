/** Log levels, lowest first; what senders call them is normalised to these. */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const SYNONYMS: Record<string, LogLevel> = {
  trace: "trace",
  verbose: "debug",
  debug: "debug",
  info: "info",
  information: "info",
  notice: "info",
  log: "info",
  success: "info",
  warn: "warn",
  warning: "warn",
  error: "error",
  err: "error",
  fatal: "fatal",
  critical: "fatal",
  crit: "fatal",
  panic: "fatal",
  emergency: "fatal",
  alert: "fatal",
};

/** A sender's level as one of ours; anything unknown or missing is `info`. */
export function normaliseLevel(value: unknown): LogLevel {
  const name = typeof value === "string" ? value.trim().toLowerCase() : "";
  // Own keys only: "constructor" or "toString" would otherwise find Object's methods.
  return Object.hasOwn(SYNONYMS, name) ? SYNONYMS[name]! : "info";
}

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && (LOG_LEVELS as readonly string[]).includes(value);
}
