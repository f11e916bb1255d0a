import { requireTeam } from "~/http/guards.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { AUDIT_EXPORT_LIMIT, auditFiltersOf, listAuditEntries, type AuditEntry } from "~/services/platform/audit-trail.server";
import { auditActionLabel } from "~/lib/audit-actions";
import { csvCell } from "~/lib/csv";
import type { Route } from "./+types/audit-export";

const COLUMNS = ["time", "actor_kind", "actor", "action", "action_label", "target", "server", "ip", "status", "detail"] as const;

/** One entry as both formats carry it; `detail` is an object (NDJSON) or its JSON text in one cell (CSV). */
function rowOf(entry: AuditEntry): Record<(typeof COLUMNS)[number], string | number | null | Record<string, unknown>> {
  return {
    time: entry.createdAt.toISOString(),
    actor_kind: entry.actor.kind,
    actor: entry.actor.name,
    action: entry.action,
    action_label: auditActionLabel(entry.action),
    target: entry.target,
    server: entry.serverName,
    ip: entry.ip,
    status: entry.status,
    detail: entry.detail,
  };
}

/** GET /audit/export?format=csv|ndjson&…filters: the filtered audit trail, newest first, as a download. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context, "manage_members");
  const query = new URL(request.url).searchParams;
  const format = query.get("format") === "ndjson" ? "ndjson" : "csv";
  let entries: AuditEntry[];
  try {
    entries = await listAuditEntries(context.db, team.id, auditFiltersOf(query), { limit: AUDIT_EXPORT_LIMIT });
  } catch (error) {
    if (!isDomainError(error, "invalid_request")) throw error;
    return new Response(error.message, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const rows = entries.map(rowOf);
  const body =
    format === "csv"
      ? [COLUMNS.join(","), ...rows.map((row) => COLUMNS.map((column) => csvCell(row[column])).join(","))].join("\r\n") + "\r\n"
      : rows.map((row) => JSON.stringify(row)).join("\n") + (rows.length ? "\n" : "");
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="stash-audit-${day}.${format}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
