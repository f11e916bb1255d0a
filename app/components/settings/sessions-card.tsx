import { MonitorSmartphone } from "lucide-react";
import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { deviceName } from "~/lib/device-name";
import { formatDate, formatDateTime } from "~/lib/format";

export interface SessionRow {
  id: string;
  ip: string | null;
  userAgent: string | null;
  signedInAt: string;
  lastActiveAt: string;
  current: boolean;
}

/** Where the account is signed in; any other device can be signed out from here. */
export function SessionsCard({ sessions }: { sessions: SessionRow[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Signed-in devices</CardTitle>
        <CardDescription>Sign out a device you do not recognise, then change your password.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y rounded-md border" aria-label="Signed-in devices">
          {sessions.map((session) => (
            <SessionItem key={session.id} session={session} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function SessionItem({ session }: { session: SessionRow }) {
  const fetcher = useFetcher();
  const name = deviceName(session.userAgent);
  return (
    <li className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center" data-testid="session-row">
      <MonitorSmartphone className="hidden size-5 shrink-0 text-muted-foreground sm:block" aria-hidden />
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{name}</span>
          {session.current ? <Badge variant="info">This device</Badge> : null}
        </div>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
          <span>{session.ip ?? "Unknown address"}</span>
          <span>{`Signed in ${formatDate(session.signedInAt)}`}</span>
          <span>{`Last active ${formatDateTime(session.lastActiveAt)}`}</span>
        </div>
      </div>
      {session.current ? null : (
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="revokeSession" />
          <input type="hidden" name="sessionId" value={session.id} />
          <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"} aria-label={`Sign out ${name}, ${session.ip ?? "unknown address"}`}>
            Sign out
          </Button>
        </fetcher.Form>
      )}
    </li>
  );
}
