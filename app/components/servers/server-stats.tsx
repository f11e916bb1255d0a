import { KeyRound, Upload } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatBytes, formatDate } from "~/lib/format";

export function ServerStats(props: { usedBytes: number; fileCount: number; quotaGb: number; allowedTypes: number; createdAt: Date | string }) {
  const rows: [string, string][] = [
    ["Storage Used", formatBytes(props.usedBytes)],
    ["Storage Quota", `${props.quotaGb} GB`],
    ["Files", String(props.fileCount)],
    ["Allowed File Types", String(props.allowedTypes)],
    ["Created", formatDate(props.createdAt)],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Server Stats</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="space-y-3 text-sm" data-testid="server-stats">
          {rows.map(([label, value]) => (
            <div key={label} className="flex justify-between gap-2">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="font-medium tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

export function ServerQuickActions({ serverId, active }: { serverId: string; active: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Quick Actions</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        {active ? (
          <Button asChild>
            <Link to={`/upload?server=${serverId}`}>
              <Upload aria-hidden /> Upload to this server
            </Link>
          </Button>
        ) : (
          <Button disabled>
            <Upload aria-hidden /> Upload to this server
          </Button>
        )}
        <Button asChild variant="outline">
          <Link to={`/api-keys?server=${serverId}`}>
            <KeyRound aria-hidden /> Manage API keys
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
