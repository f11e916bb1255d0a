import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { LogAlert, LogAlertKind, LogAlertUpdate } from "../../../db/schema";
import { DomainError } from "~/services/platform/domain-error.server";
import { isUuid } from "~/services/platform/ids.server";
import type { Logger } from "~/services/platform/logger.server";
import { sendMail, type MailContext } from "~/services/platform/mail.server";
import { postToDiscord } from "~/services/logs/discord-delivery.server";
import { assertTeamDataset, teamDatasetIds } from "~/services/logs/log-datasets.server";
import { levelsFrom, parseDiscordWebhookUrl, type LogRule } from "~/services/logs/log-rules.server";
import type { TeamId } from "~/lib/ids";

export const ALERT_KINDS: Record<LogAlertKind, string> = {
  match: "Any matching entry",
  count: "More than N in the window",
  absence: "No entries for the window",
};

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface AlertInput {
  teamId: TeamId;
  datasetId: string;
  name: unknown;
  kind: unknown;
  rule: LogRule;
  threshold: unknown;
  windowMinutes: unknown;
  cooldownMinutes: unknown;
  channel: unknown;
  target: unknown;
}

function wholeNumber(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined || value === null || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new DomainError("invalid_request", `${name} must be a whole number from ${min} to ${max}`);
  return n;
}

export interface AlertSettings {
  name: string;
  kind: LogAlertKind;
  channel: "discord" | "email";
  target: string;
  threshold: number;
  windowMinutes: number;
  cooldownMinutes: number;
}

/** An alert's settings as the form sends them, checked before anything is read or stored. */
export function parseAlertSettings(discordApiBase: string, input: Omit<AlertInput, "teamId" | "datasetId" | "rule">): AlertSettings {
  const name = typeof input.name === "string" ? input.name.trim() : "";
  if (!name || name.length > 80) throw new DomainError("invalid_request", "Name the alert (at most 80 characters)");
  // Own keys only: "constructor" is `in` every object.
  if (typeof input.kind !== "string" || !Object.hasOwn(ALERT_KINDS, input.kind)) throw new DomainError("invalid_request", "Choose when the alert fires");
  if (input.channel !== "discord" && input.channel !== "email") throw new DomainError("invalid_request", "Send alerts to Discord or e-mail");
  const target =
    input.channel === "discord"
      ? parseDiscordWebhookUrl(input.target, discordApiBase)
      : typeof input.target === "string" && EMAIL_PATTERN.test(input.target.trim())
        ? input.target.trim()
        : (() => {
            throw new DomainError("invalid_request", "Enter the e-mail address to alert");
          })();
  return {
    name,
    kind: input.kind as LogAlertKind,
    channel: input.channel,
    target,
    threshold: wholeNumber(input.threshold, "The count", 1, 1_000_000, 1),
    windowMinutes: wholeNumber(input.windowMinutes, "The window", 1, 1440, 5),
    cooldownMinutes: wholeNumber(input.cooldownMinutes, "The cooldown", 0, 10080, 15),
  };
}

export async function createLogAlert(db: Db, discordApiBase: string, input: AlertInput): Promise<void> {
  const settings = parseAlertSettings(discordApiBase, input);
  await assertTeamDataset(db, input.teamId, input.datasetId);
  await db
    .insertInto("log_alerts")
    .values({
      dataset_id: input.datasetId,
      name: settings.name,
      kind: settings.kind,
      min_level: input.rule.minLevel,
      resource: input.rule.resource,
      contains: input.rule.contains,
      threshold: settings.threshold,
      window_minutes: settings.windowMinutes,
      cooldown_minutes: settings.cooldownMinutes,
      channel: settings.channel,
      target: settings.target,
    })
    .execute();
}

/** Whether `id` names an alert of one of the team's datasets. */
export async function hasLogAlert(db: Db, teamId: TeamId, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return Boolean(await db.selectFrom("log_alerts").select("id").where("id", "=", id).where("dataset_id", "in", teamDatasetIds(db, teamId)).executeTakeFirst());
}

export async function deleteLogAlert(db: Db, teamId: TeamId, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await db
    .deleteFrom("log_alerts")
    .where("id", "=", id)
    .where("dataset_id", "in", teamDatasetIds(db, teamId))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function listLogAlerts(db: Db, teamId: TeamId) {
  return db
    .selectFrom("log_alerts as a")
    .innerJoin("log_datasets as d", "d.id", "a.dataset_id")
    .innerJoin("servers as s", "s.id", "d.server_id")
    .select(["a.id", "a.name", "a.kind", "a.threshold", "a.window_minutes as windowMinutes", "a.channel", "a.firing", "a.last_fired_at as lastFiredAt", "d.name as dataset", "s.name as serverName"])
    .where("s.team_id", "=", teamId)
    .orderBy("a.created_at")
    .execute();
}

type AlertContext = MailContext & { db: Db; logger: Logger; config: MailContext["config"] & { DISCORD_API_BASE: string; APP_NAME: string; appUrl: string } };

/**
 * Takes the moment `now` for one alert, unless an evaluation of the same or a later moment already
 * has it (another instance, or the minute job racing a slow send). Compare-and-set on checked_until,
 * so two evaluations never both judge from the same previous check. Returns the row as it was before.
 */
async function claimAlertMoment(db: Db, listed: LogAlert, now: Date): Promise<LogAlert | undefined> {
  let alert: LogAlert | undefined = listed;
  for (let attempt = 0; attempt < 3 && alert; attempt++) {
    if (alert.checked_until && alert.checked_until >= now) return undefined;
    const previous = alert.checked_until;
    const claimed = await db
      .updateTable("log_alerts")
      .set({ checked_until: now })
      .where("id", "=", alert.id)
      .where((eb) => (previous ? eb("checked_until", "=", previous) : eb("checked_until", "is", null)))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 1) return alert;
    alert = await db.selectFrom("log_alerts").selectAll().where("id", "=", alert.id).executeTakeFirst();
  }
  return undefined;
}

/** Writes what this evaluation found, unless a later moment was claimed meanwhile: its judgement is newer. */
async function settleAlert(db: Db, id: string, now: Date, state: LogAlertUpdate): Promise<void> {
  await db.updateTable("log_alerts").set(state).where("id", "=", id).where("checked_until", "=", now).execute();
}

/**
 * One evaluation of every alert (the job runs it each minute). Edge-triggered: an alert sends when
 * its condition becomes true, not while it stays true, and not again within its cooldown; it re-arms
 * once the condition is false. A send that fails leaves the alert un-fired, so the next minute retries.
 */
export async function evaluateLogAlerts(ctx: AlertContext, now: Date = new Date()): Promise<{ fired: string[] }> {
  const listed = await ctx.db.selectFrom("log_alerts").selectAll().execute();
  const fired: string[] = [];
  for (const row of listed) {
    const alert = await claimAlertMoment(ctx.db, row, now);
    if (!alert) continue;
    const since = new Date(now.getTime() - alert.window_minutes * 60_000);
    // "Any match" looks at what arrived since the last check, so one burst fires once.
    const from = alert.kind === "match" && alert.checked_until && alert.checked_until > since ? alert.checked_until : since;
    let query = ctx.db
      .selectFrom("log_entries")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("dataset_id", "=", alert.dataset_id)
      .where("ts", ">", from)
      .where("ts", "<=", now)
      .where("level", "in", levelsFrom(alert.min_level));
    if (alert.resource) query = query.where("resource", "=", alert.resource);
    if (alert.contains) query = query.where("message", "ilike", `%${alert.contains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const count = Number((await query.executeTakeFirst())?.n ?? 0);
    const condition =
      alert.kind === "match" ? count > 0 : alert.kind === "count" ? count > alert.threshold : count === 0 && alert.created_at.getTime() <= since.getTime();
    const cooled = !alert.last_fired_at || now.getTime() - alert.last_fired_at.getTime() >= alert.cooldown_minutes * 60_000;
    if (!condition) {
      await settleAlert(ctx.db, alert.id, now, { firing: false });
      continue;
    }
    if (alert.firing || !cooled) continue;
    const what =
      alert.kind === "absence"
        ? `no matching entries for ${alert.window_minutes} minutes`
        : alert.kind === "count"
          ? `${count} matching entries in ${alert.window_minutes} minutes (more than ${alert.threshold})`
          : `${count} matching ${count === 1 ? "entry" : "entries"}`;
    const text = `Alert "${alert.name}": ${what}. ${ctx.config.appUrl}/logs`;
    let delivered = false;
    if (alert.channel === "discord") {
      const answer = await postToDiscord(alert.target, { username: `${ctx.config.APP_NAME} alerts`, content: `🔔 ${text}` });
      delivered = answer.kind === "sent";
      if (!delivered) ctx.logger.warn({ alert: alert.id, answer }, "log alert not delivered; retried next minute");
    } else {
      delivered = await sendMail(ctx, { to: alert.target, subject: `${ctx.config.APP_NAME} alert: ${alert.name}`, text: `${text}\n`, link: `${ctx.config.appUrl}/logs` })
        .then(() => true)
        .catch((error: unknown) => {
          ctx.logger.warn({ err: error, alert: alert.id }, "log alert mail not sent; retried next minute");
          return false;
        });
    }
    if (!delivered) {
      // Give the moment back, so the retry counts the same entries ("any match" starts from the last check).
      await settleAlert(ctx.db, alert.id, now, { checked_until: alert.checked_until });
      continue;
    }
    await settleAlert(ctx.db, alert.id, now, { firing: true, last_fired_at: now });
    fired.push(alert.name);
  }
  return { fired };
}
