import { sql } from "kysely";
import type { Db } from "../../../db/index";
import { AUDIT_ACTOR_KINDS, type AuditActorKind } from "~/lib/audit-actions";
import { PLANS, isTier } from "~/lib/plans";
import { DomainError } from "~/services/platform/domain-error.server";
import { DAY_MS } from "~/lib/durations";
import { isCalendarDay } from "~/lib/calendar-day";
import type { ServerId, TeamId, UserId } from "~/lib/ids";
import { parseServerId } from "~/services/platform/ids.server";

/** One thing a person did in the portal; key calls are recorded by the API call log. */
export interface AuditEntryInput {
  /** The account the entry belongs to (whose /audit shows it). */
  teamId: TeamId;
  /** The signed-in person who acted; null when Stash itself did (a Stripe event, a job). */
  actorUserId: UserId | null;
  action: string;
  /** What was acted on, as the owner will read it (app/lib/audit-targets.ts): `a.png (id)`, a key's name, a member's e-mail, `Case XT-0020`. */
  target: string;
  serverId?: ServerId | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

export async function recordAudit(db: Db, entry: AuditEntryInput): Promise<void> {
  await db
    .insertInto("audit_logs")
    .values({
      team_id: entry.teamId,
      actor_user_id: entry.actorUserId,
      server_id: entry.serverId ?? null,
      action: entry.action,
      target: entry.target,
      ip: entry.ip ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .execute();
}

export interface AuditFilters {
  action?: string;
  actor?: AuditActorKind;
  serverId?: ServerId;
  /** Inclusive UTC days, YYYY-MM-DD. */
  from?: string;
  to?: string;
}

/** The trail's filters from a URL's query (the page and its export share them). */
export function auditFiltersOf(query: URLSearchParams): AuditFilters {
  const actor = query.get("actor");
  return {
    action: query.get("action") || undefined,
    actor: (AUDIT_ACTOR_KINDS as readonly string[]).includes(actor ?? "") ? (actor as AuditActorKind) : undefined,
    serverId: parseServerId(query.get("server")),
    from: query.get("from") || undefined,
    to: query.get("to") || undefined,
  };
}

export interface AuditEntry {
  id: number;
  createdAt: Date;
  action: string;
  target: string | null;
  /** "member" with the person's name, or "key" with the key's name (a deleted key: its id is gone). */
  actor: { kind: "member" | "key" | "system"; name: string };
  serverName: string | null;
  ip: string | null;
  /** The HTTP status of a key call, or of a refused portal change (403). */
  status: number | null;
  /** What the entry keeps beside its target (every file of a bulk change, a refusal's permission); the exports carry it. */
  detail: Record<string, unknown>;
}

function detailOf(value: unknown): Record<string, unknown> {
  const parsed = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

export const AUDIT_PAGE_SIZE = 50;
/** An export holds at most this many entries, newest first. */
export const AUDIT_EXPORT_LIMIT = 10_000;

/** The first moment (UTC) of a `from`/`to` day of the trail's filters, or a 400 naming the field. */
export function dayStart(value: string, field: string): Date {
  const date = new Date(`${value}T00:00:00Z`);
  if (!isCalendarDay(value)) throw new DomainError("invalid_request", `${field} must be a date (YYYY-MM-DD)`, { field });
  return date;
}

/** Where a page of the trail ends: the last entry's time and id (key calls are written up to a second after they happen). */
export interface AuditCursor {
  at: Date;
  id: number;
}

export function encodeAuditCursor(entry: { createdAt: Date; id: number }): string {
  return `${entry.createdAt.toISOString()}_${entry.id}`;
}

export function decodeAuditCursor(value: string | null): AuditCursor | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)_(\d{1,18})$/.exec(value ?? "");
  if (!match) return undefined;
  const at = new Date(match[1]!);
  return Number.isNaN(at.getTime()) ? undefined : { at, id: Number(match[2]) };
}

/**
 * The account's audit trail, newest first, `limit` entries after `before` (keyset paging on time
 * and id): portal actions with the person who did them, key calls with the key's name.
 */
export async function listAuditEntries(db: Db, teamId: TeamId, filters: AuditFilters, options: { before?: AuditCursor; limit?: number } = {}): Promise<AuditEntry[]> {
  let query = db
    .selectFrom("audit_logs as a")
    .leftJoin("api_keys as k", "k.id", "a.api_key_id")
    .leftJoin("users as u", "u.id", "a.actor_user_id")
    .leftJoin("servers as s", "s.id", "a.server_id")
    .select([
      "a.id",
      "a.created_at",
      "a.action",
      "a.target",
      "a.ip",
      "a.api_key_id",
      "a.actor_user_id",
      "k.name as key_name",
      "u.display_name as actor_name",
      "u.email as actor_email",
      "s.name as server_name",
      "a.detail",
      // Key calls and refused portal changes carry their HTTP status; other entries' details may use the name for something else.
      sql<number | null>`CASE WHEN (a.api_key_id IS NOT NULL OR a.detail->>'refused' = 'true') AND a.detail->>'status' ~ '^[0-9]{3}$' THEN (a.detail->>'status')::int END`.as("status"),
    ])
    .where("a.team_id", "=", teamId);
  if (filters.action) query = query.where("a.action", "=", filters.action);
  if (filters.actor === "key") query = query.where("a.api_key_id", "is not", null);
  if (filters.actor === "member") query = query.where("a.actor_user_id", "is not", null);
  if (filters.serverId) query = query.where("a.server_id", "=", filters.serverId);
  if (filters.from) query = query.where("a.created_at", ">=", dayStart(filters.from, "from"));
  if (filters.to) query = query.where("a.created_at", "<", new Date(dayStart(filters.to, "to").getTime() + DAY_MS));
  const before = options.before;
  if (before) query = query.where((eb) => eb.or([eb("a.created_at", "<", before.at), eb.and([eb("a.created_at", "=", before.at), eb("a.id", "<", before.id)])]));
  const rows = await query.orderBy("a.created_at", "desc").orderBy("a.id", "desc").limit(options.limit ?? AUDIT_PAGE_SIZE).execute();
  return rows.map((row) => ({
    id: Number(row.id),
    createdAt: row.created_at,
    action: row.action,
    target: row.target,
    actor: row.actor_user_id
      ? { kind: "member" as const, name: row.actor_name || row.actor_email || "A member" }
      : row.api_key_id
        ? { kind: "key" as const, name: row.key_name ?? "A deleted key" }
        : { kind: "system" as const, name: "Stash" },
    serverName: row.server_name,
    ip: row.ip,
    status: row.status,
    detail: detailOf(row.detail),
  }));
}

/**
 * Removes entries older than each account's plan keeps them (PLANS[tier].auditRetentionDays) in
 * one statement; returns how many went.
 */
export async function purgeAuditEntries(db: Db, now: Date = new Date()): Promise<number> {
  const days = sql.join(
    Object.values(PLANS).map((plan) => sql`WHEN ${sql.lit(plan.tier)} THEN ${sql.lit(plan.auditRetentionDays)}`),
    sql` `,
  );
  const result = await sql`DELETE FROM audit_logs a
    WHERE a.created_at < ${now}::timestamptz - make_interval(days => coalesce(
      (SELECT CASE s.tier ${days} END FROM subscriptions s WHERE s.team_id = a.team_id), ${sql.lit(PLANS.free.auditRetentionDays)}))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export function auditRetentionDays(tier: string | null | undefined): number {
  return PLANS[isTier(tier) ? tier : "free"].auditRetentionDays;
}
