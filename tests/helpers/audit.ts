/**
 * The audit trail as an owner reads it: the rows of /audit (who, what, on what, refused or not) and
 * the entries of the NDJSON export (with each entry's detail). Key calls are written once a second;
 * both read after `flushUsage`.
 */
import type { SignedInUser } from "./auth.ts";
import type { TestServer } from "./server.ts";

export interface AuditRow {
  actor: string;
  action: string;
  target: string;
  /** The "Refused 403" badge's text, or "" when the entry was not refused. */
  refused: string;
}

const decode = (html: string) => html.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The rows of /audit (newest first) as `who` sees them. */
export async function auditRows(server: TestServer, who: SignedInUser, query = ""): Promise<AuditRow[]> {
  await server.flushUsage();
  const res = await server.request(`/audit${query}`, { headers: { Cookie: who.cookie } });
  if (res.status !== 200) throw new Error(`/audit answered ${res.status}`);
  const html = (await res.text()).replace(/<!-- -->/g, "");
  return html
    .split('data-testid="audit-row"')
    .slice(1)
    .map((row) => ({
      actor: decode(/data-testid="audit-actor">([^<]*)</.exec(row)?.[1] ?? ""),
      action: decode(/data-testid="audit-action">([^<]*)</.exec(row)?.[1] ?? ""),
      target: decode(/data-testid="audit-target"> · ([^<]*)</.exec(row)?.[1] ?? ""),
      refused: /(Refused \d{3})/.exec(row.split("</li>")[0]!)?.[1] ?? "",
    }));
}

export interface ExportedEntry {
  time: string;
  actor_kind: "member" | "key" | "system";
  actor: string;
  action: string;
  action_label: string;
  target: string | null;
  server: string | null;
  ip: string | null;
  status: number | null;
  detail: Record<string, unknown>;
}

/** The NDJSON export (newest first) as `who` downloads it. */
export async function auditExport(server: TestServer, who: SignedInUser, query = ""): Promise<ExportedEntry[]> {
  await server.flushUsage();
  const res = await server.request(`/audit/export?format=ndjson${query ? `&${query.replace(/^\?/, "")}` : ""}`, { headers: { Cookie: who.cookie } });
  if (res.status !== 200) throw new Error(`/audit/export answered ${res.status}`);
  return (await res.text())
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ExportedEntry);
}
