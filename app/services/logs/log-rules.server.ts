import { isLogLevel, LOG_LEVELS, type LogLevel } from "~/lib/log-levels";
import { DomainError } from "~/services/platform/domain-error.server";

/** Which entries a forward or an alert is about: this level and above, a resource, text in the message. */
export interface LogRule {
  minLevel: LogLevel;
  resource: string | null;
  contains: string | null;
}

export function parseLogRule(input: { minLevel?: unknown; resource?: unknown; contains?: unknown }): LogRule {
  const minLevel = typeof input.minLevel === "string" && input.minLevel ? input.minLevel : "trace";
  if (!isLogLevel(minLevel)) throw new DomainError("invalid_request", `Level must be one of ${LOG_LEVELS.join(", ")}`);
  const resource = typeof input.resource === "string" && input.resource.trim() ? input.resource.trim().slice(0, 100) : null;
  const contains = typeof input.contains === "string" && input.contains.trim() ? input.contains.trim().slice(0, 200) : null;
  return { minLevel, resource, contains };
}

export function levelsFrom(minLevel: string): LogLevel[] {
  const index = LOG_LEVELS.indexOf(minLevel as LogLevel);
  return LOG_LEVELS.slice(Math.max(index, 0));
}

export function entryMatches(rule: { min_level: string; resource: string | null; contains: string | null }, entry: { level: string; resource: string | null; message: string }): boolean {
  if (!levelsFrom(rule.min_level).includes(entry.level as LogLevel)) return false;
  if (rule.resource && entry.resource !== rule.resource) return false;
  if (rule.contains && !entry.message.toLowerCase().includes(rule.contains.toLowerCase())) return false;
  return true;
}

const DISCORD_WEBHOOK_HOSTS = ["https://discord.com/api/webhooks/", "https://discordapp.com/api/webhooks/", "https://ptb.discord.com/api/webhooks/", "https://canary.discord.com/api/webhooks/"];

/**
 * A Discord webhook URL to send to: Discord's own hosts, or the configured Discord API base (a local
 * stand-in in tests). Nothing else, so a forward cannot be aimed at internal addresses.
 */
export function parseDiscordWebhookUrl(value: unknown, discordApiBase: string): string {
  const url = typeof value === "string" ? value.trim() : "";
  const allowed = [...DISCORD_WEBHOOK_HOSTS, `${discordApiBase.replace(/\/+$/, "")}/webhooks/`];
  if (!allowed.some((prefix) => url.startsWith(prefix)) || !/\/webhooks\/\d+\/[\w-]+$/.test(url.split("?")[0]!)) {
    throw new DomainError("invalid_request", "Paste a Discord webhook URL (https://discord.com/api/webhooks/…)");
  }
  return url.split("?")[0]!;
}
