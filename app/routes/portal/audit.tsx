import { Download, ScrollText } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { PageHeader } from "~/components/portal/page-header";
import { NativeSelect } from "~/components/api-keys/native-select";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { AUDIT_ACTION_LABELS, auditActionLabel } from "~/lib/audit-actions";
import { formatDateTime } from "~/lib/format";
import { pageTitle } from "~/lib/site";
import { requireTeam } from "~/http/guards.server";
import { getAccountQuota } from "~/services/billing/quota.server";
import { listServersForTeam } from "~/services/servers/servers.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { AUDIT_PAGE_SIZE, auditFiltersOf, auditRetentionDays, decodeAuditCursor, encodeAuditCursor, listAuditEntries, type AuditEntry } from "~/services/platform/audit-trail.server";
import type { Route } from "./+types/audit";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Audit Log", matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context, "manage_members");
  const query = new URL(request.url).searchParams;
  const filters = auditFiltersOf(query);
  const [servers, quota] = await Promise.all([listServersForTeam(context.db, team.id), getAccountQuota(context.db, team.id)]);
  let entries: AuditEntry[] = [];
  let error: string | null = null;
  try {
    entries = await listAuditEntries(context.db, team.id, filters, { before: decodeAuditCursor(query.get("before")) });
  } catch (failure) {
    if (!isDomainError(failure, "invalid_request")) throw failure;
    error = failure.message;
  }
  return {
    // The page shows each entry's target; the details (every file of a bulk change) are in the exports.
    entries: entries.map(({ detail: _detail, ...entry }) => entry),
    error,
    filters,
    servers: servers.map((s) => ({ id: s.id, name: s.name })),
    retentionDays: auditRetentionDays(quota.tier),
    nextBefore: entries.length === AUDIT_PAGE_SIZE ? encodeAuditCursor(entries.at(-1)!) : null,
  };
}

function withParams(base: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(base);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) next.delete(name);
    else next.set(name, value);
  }
  return next.toString();
}

function ActorBadge({ actor }: { actor: AuditEntry["actor"] }) {
  const label = actor.kind === "key" ? "API key" : actor.kind === "member" ? "Person" : "Stash";
  return (
    <span className="flex min-w-0 items-center gap-2">
      <Badge variant={actor.kind === "key" ? "secondary" : "outline"}>{label}</Badge>
      <span className="truncate" data-testid="audit-actor">
        {actor.name}
      </span>
    </span>
  );
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { entries, error, filters, servers, retentionDays, nextBefore } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/audit";
  const filterParams = new URLSearchParams(Object.entries(filters).filter((pair): pair is [string, string] => Boolean(pair[1])).map(([k, v]) => [k === "serverId" ? "server" : k, v]));
  const filtered = filterParams.size > 0;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Audit Log"
        description={`What was done on your account and by your API keys, newest first. Entries are kept ${retentionDays} days on your plan.`}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <a href={`/audit/export?${withParams(filterParams, { format: "csv" })}`} download>
                <Download aria-hidden /> Export CSV
              </a>
            </Button>
            <Button asChild variant="outline" size="sm">
              <a href={`/audit/export?${withParams(filterParams, { format: "ndjson" })}`} download>
                <Download aria-hidden /> Export NDJSON
              </a>
            </Button>
          </div>
        }
      />
      <Card>
        <CardContent className="pt-6">
          <Form method="get" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-6 lg:items-end" aria-label="Filter the audit log">
            <div className="grid gap-2 lg:col-span-2">
              <Label htmlFor="audit-action">Action</Label>
              <NativeSelect id="audit-action" name="action" defaultValue={filters.action ?? ""}>
                <option value="">Every action</option>
                {Object.entries(AUDIT_ACTION_LABELS).map(([action, label]) => (
                  <option key={action} value={action}>
                    {label}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="audit-actor">Who</Label>
              <NativeSelect id="audit-actor" name="actor" defaultValue={filters.actor ?? ""}>
                <option value="">Everyone</option>
                <option value="member">People</option>
                <option value="key">API keys</option>
              </NativeSelect>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="audit-server">Server</Label>
              <NativeSelect id="audit-server" name="server" defaultValue={filters.serverId ?? ""}>
                <option value="">Every server</option>
                {servers.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="audit-from">From</Label>
              <Input id="audit-from" name="from" type="date" defaultValue={filters.from ?? ""} />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="audit-to">To</Label>
              <Input id="audit-to" name="to" type="date" defaultValue={filters.to ?? ""} />
            </div>
            <div className="flex gap-2 sm:col-span-2 lg:col-span-6">
              <Button type="submit" disabled={loading}>
                {loading ? "Loading..." : "Apply filters"}
              </Button>
              {filtered ? (
                <Button asChild variant="ghost">
                  <Link to="/audit">Clear</Link>
                </Button>
              ) : null}
            </div>
          </Form>
        </CardContent>
      </Card>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : entries.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 py-12 text-center">
            <ScrollText className="size-8 text-muted-foreground" aria-hidden />
            <p className="font-medium">{filtered ? "No entries match these filters" : "Nothing recorded yet"}</p>
            <p className="text-sm text-muted-foreground">
              {filtered ? "Try a wider date range or another action." : "Uploads from your keys and changes you make in the portal appear here."}
            </p>
          </CardContent>
        </Card>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Audit entries" aria-busy={loading}>
          {entries.map((entry) => (
            <li key={entry.id} className="grid gap-1 p-3 text-sm md:grid-cols-[11rem_minmax(0,1fr)_minmax(0,1.2fr)_minmax(0,1fr)_7rem] md:items-center md:gap-3" data-testid="audit-row">
              <time dateTime={new Date(entry.createdAt).toISOString()} className="text-muted-foreground">
                {formatDateTime(entry.createdAt)}
              </time>
              <ActorBadge actor={entry.actor} />
              <span className="min-w-0">
                <span className="font-medium" data-testid="audit-action">
                  {auditActionLabel(entry.action)}
                </span>
                {entry.target ? <span className="break-words text-muted-foreground" data-testid="audit-target">{` · ${entry.target}`}</span> : null}
              </span>
              <span className="min-w-0 truncate text-muted-foreground">{entry.serverName ?? "—"}</span>
              <span className="flex items-center gap-2 text-xs text-muted-foreground">
                {entry.status !== null && entry.status >= 400 ? <Badge variant="destructive">{`Refused ${entry.status}`}</Badge> : null}
                <span className="truncate">{entry.ip ?? ""}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      {nextBefore ? (
        <div className="flex justify-center">
          <Button asChild variant="outline">
            <Link to={`/audit?${withParams(filterParams, { before: nextBefore })}`}>Older entries</Link>
          </Button>
        </div>
      ) : null}
    </div>
  );
}
