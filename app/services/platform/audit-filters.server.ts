import { AUDIT_ACTOR_KINDS, type AuditActorKind } from "~/lib/audit-actions";
import type { AuditFilters } from "~/services/platform/audit-trail.server";

/** The audit trail's filters from a URL's query (the page and its export share them). */
export function auditFiltersOf(query: URLSearchParams): AuditFilters {
  const actor = query.get("actor");
  return {
    action: query.get("action") || undefined,
    actor: (AUDIT_ACTOR_KINDS as readonly string[]).includes(actor ?? "") ? (actor as AuditActorKind) : undefined,
    serverId: query.get("server") || undefined,
    from: query.get("from") || undefined,
    to: query.get("to") || undefined,
  };
}
