import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { isLogLevel, LOG_LEVELS, type LogLevel } from "~/lib/log-levels";
import { DomainError } from "~/services/platform/domain-error.server";
import { levelsFrom } from "~/services/logs/log-rules.server";
import { DAY_MS } from "~/lib/durations";
import { startsOnCalendarDay } from "~/lib/calendar-day";
import type { ServerId, TeamId } from "~/lib/ids";

export const LOG_PAGE_SIZE = 100;
const MAX_LOG_PAGE = 1000;

export interface LogFilters {
  dataset?: string;
  /** This level and above. */
  level?: LogLevel;
  resource?: string;
  /** Text the message contains (case-insensitive). */
  q?: string;
  from?: Date;
  to?: Date;
  /** `metadata.key = value` filters, all of which must hold. */
  meta: Array<[string, string]>;
}

export interface LogCursor {
  ts: Date;
  id: string;
}

export function encodeLogCursor(entry: { ts: Date; id: string }): string {
  return Buffer.from(`${entry.ts.toISOString()}|${entry.id}`).toString("base64url");
}

export function decodeLogCursor(value: string | null | undefined): LogCursor | undefined {
  if (!value) return undefined;
  const [ts, id] = Buffer.from(value, "base64url").toString("utf8").split("|");
  const date = new Date(ts ?? "");
  if (Number.isNaN(date.getTime()) || !/^\d+$/.test(id ?? "")) throw new DomainError("invalid_request", "cursor is not valid");
  return { ts: date, id: id! };
}

/** A date and time without an offset, as `<input type="datetime-local">` sends it. */
const WALL_CLOCK_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/**
 * A `from`/`to` bound. A time without an offset is UTC, the zone the portal shows every time in;
 * JavaScript would read it in the server's own zone, so a host not set to UTC would shift the range.
 */
function parseDate(value: string | null, name: string): Date | undefined {
  if (!value) return undefined;
  const date = new Date(WALL_CLOCK_TIME.test(value) ? `${value}Z` : value);
  if (Number.isNaN(date.getTime()) || !startsOnCalendarDay(value)) throw new DomainError("invalid_request", `${name} must be a date or time (ISO 8601)`);
  return date;
}

/** The filters from a query string (the portal's form and `GET /api/logs/search` share them). */
export function logFiltersOf(query: URLSearchParams): LogFilters {
  const level = query.get("level")?.trim().toLowerCase() || undefined;
  if (level !== undefined && !isLogLevel(level)) throw new DomainError("invalid_request", `level must be one of ${LOG_LEVELS.join(", ")}`);
  const meta: Array<[string, string]> = [];
  for (const raw of query.getAll("meta")) {
    const eq = raw.indexOf("=");
    if (eq <= 0) throw new DomainError("invalid_request", "meta filters look like key=value");
    meta.push([raw.slice(0, eq).trim(), raw.slice(eq + 1).trim()]);
  }
  return {
    dataset: query.get("dataset")?.trim() || undefined,
    level,
    resource: query.get("resource")?.trim() || undefined,
    q: query.get("q")?.trim() || undefined,
    from: parseDate(query.get("from"), "from"),
    to: parseDate(query.get("to"), "to"),
    meta,
  };
}

export interface LogEntryView {
  id: string;
  ts: Date;
  dataset: string;
  serverName: string;
  level: string;
  resource: string | null;
  message: string;
  metadata: Record<string, unknown>;
}

/** The entries of a team's (or one server's) datasets that pass the filters, with what a line shows. */
function filteredEntries(db: Db, scope: { teamId: TeamId; serverId?: ServerId }, filters: LogFilters) {
  let query = db
    .selectFrom("log_entries as e")
    .innerJoin("log_datasets as d", "d.id", "e.dataset_id")
    .innerJoin("servers as s", "s.id", "d.server_id")
    .select(["e.id", "e.ts", "d.name as dataset", "s.name as serverName", "e.level", "e.resource", "e.message", "e.metadata"])
    .where("s.team_id", "=", scope.teamId);
  if (scope.serverId) query = query.where("s.id", "=", scope.serverId);
  if (filters.dataset) query = query.where("d.name", "=", filters.dataset);
  if (filters.level) query = query.where("e.level", "in", levelsFrom(filters.level));
  if (filters.resource) query = query.where("e.resource", "=", filters.resource);
  if (filters.q) query = query.where("e.message", "ilike", `%${filters.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (filters.from) query = query.where("e.ts", ">=", filters.from);
  if (filters.to) query = query.where("e.ts", "<=", filters.to);
  for (const [key, value] of filters.meta) query = query.where(sql<boolean>`e.metadata @> ${JSON.stringify({ [key]: value })}::jsonb`);
  return query;
}

type EntryRow = { id: string | number; ts: Date | string; dataset: string; serverName: string; level: string; resource: string | null; message: string; metadata: unknown };

function toView(row: EntryRow): LogEntryView {
  return { ...row, id: String(row.id), ts: new Date(row.ts), metadata: row.metadata as Record<string, unknown> };
}

/**
 * Entries of some servers' datasets, newest first, `limit` at a time after `before` (keyset paging on
 * (ts, id), so a page costs the same however deep it is).
 */
export async function searchLogs(
  db: Db,
  scope: { teamId: TeamId; serverId?: ServerId },
  filters: LogFilters,
  options: { before?: LogCursor; limit?: number } = {},
): Promise<{ entries: LogEntryView[]; next: string | null }> {
  const limit = Math.min(Math.max(options.limit ?? LOG_PAGE_SIZE, 1), MAX_LOG_PAGE);
  let query = filteredEntries(db, scope, filters);
  if (options.before) {
    const { ts, id } = options.before;
    query = query.where((eb) => eb.or([eb("e.ts", "<", ts), eb.and([eb("e.ts", "=", ts), eb("e.id", "<", id)])]));
  }
  const rows = await query.orderBy("e.ts", "desc").orderBy("e.id", "desc").limit(limit + 1).execute();
  const page = rows.slice(0, limit).map(toView);
  const last = page.at(-1);
  return { entries: page, next: rows.length > limit && last ? encodeLogCursor(last) : null };
}

/** How far back the live tail looks for newly received entries (their own timestamps may lag). */
const TAIL_WINDOW_MS = DAY_MS;

/**
 * For the live tail: entries received after `afterId` (ids grow as entries arrive) that pass the
 * filters, oldest first; `afterId` undefined answers the newest id to start from.
 */
export async function tailLogs(db: Db, scope: { teamId: TeamId }, filters: LogFilters, afterId: string | undefined, now: Date = new Date()): Promise<{ entries: LogEntryView[]; lastId: string }> {
  const since = new Date(now.getTime() - TAIL_WINDOW_MS);
  if (afterId === undefined) {
    const row = await db.selectFrom("log_entries").select((eb) => eb.fn.max("id").as("id")).where("ts", ">=", since).executeTakeFirst();
    return { entries: [], lastId: String(row?.id ?? 0) };
  }
  const rows = await filteredEntries(db, scope, filters).where("e.ts", ">=", since).where("e.id", ">", afterId).orderBy("e.id", "asc").limit(200).execute();
  const entries = rows.map(toView);
  return { entries, lastId: entries.at(-1)?.id ?? afterId };
}
