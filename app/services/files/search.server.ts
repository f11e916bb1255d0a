import { sql, type ExpressionBuilder } from "kysely";
import type { Db } from "../../../db/index";
import type { Database, FileRecord } from "../../../db/schema";
import { DomainError } from "~/services/platform/domain-error.server";
import { startsOnCalendarDay } from "~/lib/calendar-day";
import type { ServerId } from "~/lib/ids";

export const SEARCH_MAX_LIMIT = 100;
const OFFSET_DEFAULT_LIMIT = 50;
const PAGE_DEFAULT_LIMIT = 20;

export interface SearchQuery {
  serverId: ServerId;
  category?: string;
  playerName?: string;
  playerIdentifier?: string;
  filename?: string;
  from?: Date;
  to?: Date;
  metadata?: Record<string, unknown>;
  sort: "asc" | "desc";
  limit: number;
  offset: number;
  /** Set when the caller paged with `page`; echoed back. */
  page: number;
}

function invalid(field: string, message: string): DomainError {
  return new DomainError("invalid_request", message, { field });
}

function integer(params: URLSearchParams, name: string, min: number): number | undefined {
  const raw = params.get(name)?.trim();
  if (!raw) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw invalid(name, `${name} must be a whole number of at least ${min}`);
  // Past 2^53 the number is no longer exact, and an OFFSET past PostgreSQL's bigint fails the query.
  if (!Number.isSafeInteger(Number(raw))) throw invalid(name, `${name} is too large`);
  return Number(raw);
}

function date(params: URLSearchParams, name: string, endOfDay: boolean): Date | undefined {
  const raw = params.get(name)?.trim();
  if (!raw) return undefined;
  // A bare date means the whole day: from the start of from_date to the end of to_date.
  const value = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? new Date(`${raw}T${endOfDay ? "23:59:59.999" : "00:00:00.000"}Z`) : new Date(raw);
  if (Number.isNaN(value.getTime()) || !startsOnCalendarDay(raw)) throw invalid(name, `${name} must be a date (YYYY-MM-DD or ISO 8601)`);
  return value;
}

function text(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name)?.trim();
  return value ? value.slice(0, 200) : undefined;
}

/** Reads and validates the query string of GET /api/search; throws a 400 DomainError on bad input. */
export function parseSearchParams(serverId: ServerId, params: URLSearchParams): SearchQuery {
  const sortRaw = (params.get("sort") ?? params.get("order") ?? "desc").trim().toLowerCase();
  if (sortRaw !== "asc" && sortRaw !== "desc") throw invalid("sort", "sort must be asc or desc");
  let metadata: Record<string, unknown> | undefined;
  const metadataRaw = params.get("metadata")?.trim();
  if (metadataRaw) {
    try {
      metadata = JSON.parse(metadataRaw);
    } catch {
      throw invalid("metadata", "metadata must be a JSON object");
    }
    if (!metadata || typeof metadata !== "object" || Array.isArray(metadata)) throw invalid("metadata", "metadata must be a JSON object");
  }
  const page = integer(params, "page", 1);
  const requestedLimit = integer(params, "limit", 1);
  const limit = Math.min(requestedLimit ?? (page ? PAGE_DEFAULT_LIMIT : OFFSET_DEFAULT_LIMIT), SEARCH_MAX_LIMIT);
  const offset = page ? (page - 1) * limit : (integer(params, "offset", 0) ?? 0);
  const from = date(params, "from_date", false);
  const to = date(params, "to_date", true);
  if (from && to && from > to) throw invalid("from_date", "from_date must not be after to_date");
  return {
    serverId,
    category: text(params, "category"),
    playerName: text(params, "player_name"),
    playerIdentifier: text(params, "player_identifier"),
    filename: text(params, "filename"),
    from,
    to,
    metadata,
    sort: sortRaw,
    limit,
    offset,
    page: page ?? Math.floor(offset / limit) + 1,
  };
}

function likeSubstring(value: string): string {
  return `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Filters in the shapes the indexes of 0001-initial serve: (server_id, …) b-trees, lower() trigram GINs, jsonb_path_ops. */
function filters(query: SearchQuery) {
  return (eb: ExpressionBuilder<Database, "files">) => {
    const conditions = [eb("server_id", "=", query.serverId)];
    if (query.category) conditions.push(eb("category", "=", query.category.toLowerCase()));
    if (query.playerIdentifier) conditions.push(eb("player_identifier", "=", query.playerIdentifier));
    if (query.playerName) conditions.push(eb(sql`lower(player_name)`, "like", likeSubstring(query.playerName)));
    if (query.filename) {
      const pattern = likeSubstring(query.filename);
      conditions.push(eb.or([eb(sql`lower(filename)`, "like", pattern), eb(sql`lower(original_filename)`, "like", pattern)]));
    }
    if (query.from) conditions.push(eb("created_at", ">=", query.from));
    if (query.to) conditions.push(eb("created_at", "<=", query.to));
    if (query.metadata) conditions.push(eb(sql`metadata`, "@>", sql`${JSON.stringify(query.metadata)}::jsonb`));
    return eb.and(conditions);
  };
}

/**
 * Counting every match of a busy server costs more than the page itself (hundreds of ms at 400k
 * files), so the count stops here — or just past the requested page, so `has_more` stays exact.
 */
export const SEARCH_TOTAL_CAP = 10_000;

export interface SearchResult {
  files: FileRecord[];
  /** Matches counted, at most the cap. */
  total: number;
  /** More files match than `total` says. */
  totalCapped: boolean;
}

export async function searchFiles(db: Db, query: SearchQuery): Promise<SearchResult> {
  const where = filters(query);
  const cap = Math.max(SEARCH_TOTAL_CAP, query.offset + query.limit + 1);
  if (query.filename || query.playerName) {
    const narrowed = await searchTrigramMatches(db, query, where, cap);
    if (narrowed !== PAST_CAP) return narrowed;
    return { files: await pageInOrder(db, query, where), total: cap, totalCapped: true };
  }
  const [files, count] = await Promise.all([
    pageInOrder(db, query, where),
    db
      .selectFrom((qb) => qb.selectFrom("files").select(sql<number>`1`.as("one")).where(where).limit(cap + 1).as("matches"))
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  const counted = Number(count.total);
  return { files, total: Math.min(counted, cap), totalCapped: counted > cap };
}

type Filters = ReturnType<typeof filters>;
const PAST_CAP = Symbol("more matches than the cap");

function pageInOrder(db: Db, query: SearchQuery, where: Filters): Promise<FileRecord[]> {
  return db
    .selectFrom("files")
    .selectAll()
    .where(where)
    .orderBy("created_at", query.sort)
    .orderBy("id", query.sort)
    .limit(query.limit)
    .offset(query.offset)
    .execute();
}

/**
 * A substring filter asked as "newest first, first 50" lets the planner walk the server's
 * created_at index and test every row: fast when matches are dense, 400+ ms on a 400k-file server
 * when they are rare and it guessed otherwise. So the trigram indexes collect the matches first
 * (unordered, at most `cap + 1`) and only those are sorted and paged, in one statement. When more
 * than the cap match, the matches are dense and the ordered walk finds a page quickly: PAST_CAP
 * sends the caller down that path.
 */
async function searchTrigramMatches(db: Db, query: SearchQuery, where: Filters, cap: number): Promise<SearchResult | typeof PAST_CAP> {
  const rows = await db
    .with(
      (cte) => cte("matches").materialized(),
      (qb) => qb.selectFrom("files").select(["id", "created_at"]).where(where).limit(cap + 1),
    )
    .with("match_count", (qb) => qb.selectFrom("matches").select((eb) => eb.fn.countAll<string>().as("total")))
    .with("page", (qb) =>
      qb.selectFrom("matches").select("id").orderBy("created_at", query.sort).orderBy("id", query.sort).limit(query.limit).offset(query.offset),
    )
    .selectFrom("match_count")
    .leftJoin("page", (join) => join.onTrue())
    .leftJoin("files", "files.id", "page.id")
    .selectAll("files")
    .select("match_count.total")
    .orderBy("files.created_at", query.sort)
    .orderBy("files.id", query.sort)
    .execute();
  const counted = Number(rows[0].total);
  if (counted > cap) return PAST_CAP;
  const files = rows.filter((row) => row.id !== null).map(({ total: _total, ...file }) => file as FileRecord);
  return { files, total: counted, totalCapped: false };
}
